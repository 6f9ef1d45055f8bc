/// The words the sample records are made of, with some non-ASCII text in every
/// list, as in the seed apps' real data.
enum SampleText {
    static let timerNames = [
        "Tea", "Deep Work", "Pomodoro", "Morning Stretch", "Plank 🏋️", "Café break ☕",
        "Pasta al dente", "読書タイム", "Grüße an Oma anrufen", "Meditation", "Laundry", "Sourdough proof",
    ]
    static let icons = ["timer", "cup.and.saucer", "book", "figure.run", "leaf", "fork.knife", "bed.double"]
    static let colors = ["#007AFF", "#34C759", "#FF9500", "#FF2D55", "#AF52DE", "#5AC8FA"]
    static let notes = [
        "Steep for four minutes, then remove the bag.",
        "Phone face down, notifications off, one tab open.",
        "Water at 95 °C — not boiling — for green tea.",
        "Rest 30 s between sets; keep the core tight.",
        "Ne pas oublier : sortir le pain à temps.",
        "雨の日は少し長めに。",
    ]
    /// Weighted like a history: mostly finished sessions, few still running.
    static let focusStates = [
        "completed", "completed", "completed", "completed", "abandoned", "abandoned", "active", "paused",
    ]
    static let focusNotes = [
        "Wrote the migration plan.", "Interrupted by a call.", "Read two chapters of Dune.",
        "Refactored the sync engine — finally.", "Übungen für die Prüfung.",
    ]
    static let sessionTypes = ["Training", "Test", "Race"]
    static let strokePhases = ["catch", "drive", "finish", "recovery"]
    static let eventTypes = ["login", "sync.completed", "device.paired", "token.rotated", "export.requested"]
    static let deviceNames = [
        "Jürgen's iPhone", "Zoë's Apple Watch", "iPad de Amélie", "Office Mac mini", "Łukasz — Pixel 8",
    ]
    static let places = ["Zürich", "São Paulo", "Kraków", "東京", "Reykjavík", "Montréal"]
    static let userAgents = [
        "HealthSync/2.3 (iPhone; iOS 18.1)", "HealthSync/2.3 (Watch; watchOS 11.0)", "HealthSync/2.2 (Mac; macOS 15.1)",
    ]
}
