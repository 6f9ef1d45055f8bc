/// Waits on the main actor, letting updates in, until a condition holds or ten seconds pass;
/// returns whether it held. Ten seconds, not less: the suite must pass on a loaded machine.
@MainActor public func eventually(_ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .seconds(10)
    while !condition() {
        if ContinuousClock.now > deadline { return false }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return true
}
