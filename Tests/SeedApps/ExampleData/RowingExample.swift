import Folio
import Foundation

/// `Data/Rowing`: one athlete rowing on one PM5 through 2026, a session a week from
/// January to October (40 in all, three summer weeks off).
///
/// Steady-state training sessions (5 to 10 km) and 2,000 m tests and a race; each keeps
/// a `PerformanceMetric` per 500 m split, except the last test, recorded stroke by stroke
/// with one save per stroke, as the app does while rowing. Paces improve over the year;
/// power follows the PM5's formula, watts = 2.80 / (pace per metre)³. The athlete's
/// `profileImageData` is a 16×16 PNG stored inline as base64; the device's `sessions`,
/// a to-many without an inverse, is stored as a sorted array of session ids.
enum RowingExample {
    /// The athlete's avatar: a blue disc on light grey, 109 bytes of PNG.
    static let avatar = Data(
        base64Encoded:
            "iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAANElEQVR42mP4RCJgQObotR3EirBrwKUaTQ8DMaqR9TAQqRquZ1QDzTSQHHHkJA1yEh+RAABQwOjkikGFoAAAAABJRU5ErkJggg=="
    )!
    static let weeks = 43
    /// Weeks without rowing (the summer holiday).
    static let weeksOff: Set<Int> = [30, 31, 32]
    /// Weeks with a 2,000 m test; the last is recorded stroke by stroke.
    static let testWeeks: Set<Int> = [0, 9, 19, 29, 42]
    /// The week of the indoor race (on the Saturday).
    static let raceWeek = 7

    static func write(to folder: URL) throws {
        var random = ExampleRandom(seed: 0x0000_0006)
        let context = ModelContext(
            try ModelContainer(for: Athlete.self, PM5Device.self, configurations: ExampleData.configuration(folder)))
        let joined = ExampleClock.date(2026, 1, 4, 16, 21, 7)

        let athlete = Athlete(name: "Lena Hoffmann", email: "lena.hoffmann@icloud.com", userRole: .athlete)
        athlete.id = random.uuid()
        athlete.teamID = random.uuid()
        athlete.profileImageData = avatar
        athlete.preferredBoat = .single
        athlete.weight = 68.5
        athlete.height = 176.0
        athlete.createdAt = joined
        athlete.modifiedAt = joined
        context.insert(athlete)

        let device = PM5Device(serialNumber: "430512877", hardwareVersion: "PM5 v3", firmwareVersion: "32.000")
        device.id = random.uuid()
        device.nickname = "Garage erg"
        device.createdAt = ExampleClock.seconds(95, after: joined)
        device.modifiedAt = device.createdAt
        context.insert(device)
        try context.save()

        let firstTuesday = ExampleClock.date(2026, 1, 6)
        for week in 0..<weeks where !weeksOff.contains(week) {
            let progress = Double(week) / Double(weeks - 1)
            let type: SessionType = week == raceWeek ? .race : testWeeks.contains(week) ? .test : .training
            let day = ExampleClock.day(7 * week + (type == .race ? 4 : 0), after: firstTuesday)
            let start = ExampleClock.seconds(
                type == .race ? 10 * 3600 + 40 * 60 : 60 * random.int(1080...1170) + random.int(0...59), after: day)

            let session = RowingSession(athleteID: athlete.id, pm5DeviceID: device.serialNumber, sessionType: type)
            session.id = random.uuid()
            session.teamID = type == .race ? athlete.teamID : nil
            session.startTime = start
            session.createdAt = start
            session.modifiedAt = start
            session.dragFactor = Double(random.int(112...127))
            context.insert(session)
            session.athlete = athlete
            device.sessions.append(session)
            device.lastConnected = start
            device.modifiedAt = start
            try context.save()

            if week == weeks - 1 {
                try rowStrokeByStroke(session, context: context, random: &random)
            } else {
                let distance = type == .training ? random.pick([5000, 6000, 6000, 8000, 10000]) : 2000
                // Pace in tenths of a second per 500 m: 2:12 falling to 2:05 steady, 1:56 to 1:52 hard.
                let pace = type == .training ? 1320 - Int(70 * progress) : 1160 - Int(40 * progress)
                let rate = type == .training ? random.int(19...22) : random.int(31...34)
                try rowInSplits(
                    session, distance: distance, pace: pace, rate: rate, heartRate: week % 6 != 3, context: context,
                    random: &random)
            }
            session.isComplete = true
            session.endTime = ExampleClock.seconds(Int(session.totalTime.rounded(.up)), after: start)
            session.modifiedAt = session.endTime!
            try context.save()
        }
    }

    /// Watts for a pace in seconds per 500 m, by the PM5's formula, to a tenth.
    static func power(pace: Double) -> Double {
        let perMetre = pace / 500
        return (2.80 / (perMetre * perMetre * perMetre) * 10).rounded() / 10
    }

    /// Fills in a stroke's mechanics from its rate and power.
    static func mechanics(_ metric: PerformanceMetric, random: inout ExampleRandom) {
        metric.driveTime = random.hundredths(68...86)
        metric.recoveryTime = ((60 / Double(metric.strokeRate) - metric.driveTime) * 100).rounded() / 100
        metric.strokeLength = random.hundredths(132...148)
        metric.peakForce = random.tenths(5600...8400)
        metric.averageForce = (metric.peakForce * 0.56 * 10).rounded() / 10
        metric.workPerStroke = (metric.power * 60 / Double(metric.strokeRate) * 10).rounded() / 10
    }

    /// A session with one metric per 500 m split, and its totals from them.
    static func rowInSplits(
        _ session: RowingSession, distance: Int, pace: Int, rate: Int, heartRate: Bool, context: ModelContext,
        random: inout ExampleRandom
    ) throws {
        let splits = distance / 500
        var elapsedTenths = 0
        var powers: [Double] = []
        var rates = 0
        for split in 1...splits {
            let splitPace = pace + random.int(-18...18)
            elapsedTenths += splitPace
            let metric = PerformanceMetric(
                sessionID: session.id,
                timestamp: ExampleClock.seconds((elapsedTenths + 5) / 10, after: session.startTime))
            metric.id = random.uuid()
            metric.distance = Double(500 * split)
            metric.pace = Double(splitPace) / 10
            metric.strokeRate = rate + random.int(-1...1)
            metric.power = power(pace: metric.pace)
            metric.strokeCount = (elapsedTenths * rate + 300) / 600
            metric.heartRate = heartRate ? min(128 + 3 * split + random.int(0...6), 186) : nil
            metric.strokePhase = random.pick(StrokePhase.allCases)
            mechanics(metric, random: &random)
            context.insert(metric)
            metric.session = session
            powers.append(metric.power)
            rates += metric.strokeRate
        }
        session.totalDistance = Double(distance)
        session.totalTime = Double(elapsedTenths) / 10
        session.averagePace = Double((elapsedTenths + splits / 2) / splits) / 10
        session.averageStrokeRate = (Double(rates) / Double(splits) * 10).rounded() / 10
        session.averagePower = (powers.reduce(0, +) / Double(powers.count) * 10).rounded() / 10
        session.maxPower = powers.max() ?? 0
    }

    /// The last 2,000 m test, one metric and one save per stroke: a fast start, a long
    /// middle at 32 strokes a minute, a sprint over the last 250 m.
    static func rowStrokeByStroke(_ session: RowingSession, context: ModelContext, random: inout ExampleRandom) throws {
        var elapsedMilliseconds = 0
        var decimetres = 0
        var powers: [Double] = []
        var stroke = 0
        while decimetres < 20_000 {
            stroke += 1
            let rate = stroke <= 8 ? 38 - stroke / 3 : decimetres >= 17_500 ? random.int(35...38) : random.int(31...33)
            let pace =
                stroke <= 8
                ? random.int(1020...1060) : decimetres >= 17_500 ? random.int(1050...1080) : random.int(1100...1135)
            let strokeMilliseconds = 60_000 / rate
            elapsedMilliseconds += strokeMilliseconds
            decimetres = min(20_000, decimetres + (strokeMilliseconds * 50 + pace / 2) / pace)

            // On a quarter-second grid, so timestamps print as short as the PM5 reports them.
            let timestamp = session.startTime.addingTimeInterval(Double((elapsedMilliseconds + 125) / 250) / 4)
            let metric = PerformanceMetric(sessionID: session.id, timestamp: timestamp)
            metric.id = random.uuid()
            metric.distance = Double(decimetres) / 10
            metric.pace = Double(pace) / 10
            metric.strokeRate = rate
            metric.power = power(pace: metric.pace)
            metric.strokeCount = stroke
            metric.heartRate = min(142 + stroke / 4 + random.int(0...3), 191)
            metric.strokePhase = .recovery  // the PM5 reports a stroke as its drive ends
            mechanics(metric, random: &random)
            context.insert(metric)
            metric.session = session
            try context.save()  // frequent saves for real-time data, as the seed does
            powers.append(metric.power)
        }
        let tenths = (elapsedMilliseconds + 50) / 100
        session.totalDistance = 2000
        session.totalTime = Double(tenths) / 10
        session.averagePace = Double((tenths + 2) / 4) / 10
        session.averageStrokeRate = (Double(stroke) * 600 / Double(tenths) * 10).rounded() / 10
        session.averagePower = (powers.reduce(0, +) / Double(powers.count) * 10).rounded() / 10
        session.maxPower = powers.max() ?? 0
    }
}
