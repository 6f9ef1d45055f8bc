import FolioCore

/// A first argument that names no command of the tool, as `folio qurey`: said so, with the
/// command it most likely meant, as git says of `git comit`.
struct UnknownCommand {
    /// What was typed.
    var word: String
    /// The command nearest to it, when one is near enough to be a typo.
    var nearest: String?

    /// The refusal of `word`, or nil when it is an option or a command's name: only then is a
    /// failure to parse the command line about the command's name.
    init?(_ word: String, among names: [String]) {
        guard !word.hasPrefix("-"), !names.contains(word) else { return nil }
        self.word = word
        nearest = Spelling.nearest(to: word, among: names)
    }

    /// The message: what is wrong, and what to type.
    var message: TerminalText {
        let shown = TerminalText(word)
        let error = Terminal.colour("error:", 31, onError: true)
        if let nearest {
            return "\(error) \(shown) is not a folio command; did you mean \(TerminalText(nearest))?\n"
                + "hint: folio help lists the commands"
        }
        return "\(error) \(shown) is not a folio command\nhint: folio help lists the commands"
    }
}
