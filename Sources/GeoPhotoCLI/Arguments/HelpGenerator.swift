/// Help text in the layout of swift-argument-parser: OVERVIEW, USAGE, ARGUMENTS, OPTIONS.
enum HelpGenerator {
  static func help(for spec: CommandSpec) -> String {
    var out = "OVERVIEW: \(spec.abstract)\n"
    if let discussion = spec.discussion { out += "\n\(discussion)\n" }
    out += "\nUSAGE: \(spec.usage)\n"
    if !spec.arguments.isEmpty {
      out += "\nARGUMENTS:\n"
      out += rows(spec.arguments.map { ("<\($0.name)>", $0.help) })
    }
    out += "\nOPTIONS:\n"
    out += rows(
      spec.allOptions.map { o in
        var label = "--\(o.long)"
        if let s = o.short { label = "-\(s), " + label }
        if let v = o.valueName { label += " <\(v)>" }
        var text = o.help
        let notes = [o.defaultText.map { "default: \($0)" }, o.environment.map { "also \($0)" }].compactMap { $0 }
        if !notes.isEmpty { text += " (\(notes.joined(separator: "; ")))" }
        return (label, text)
      })
    if !spec.examples.isEmpty {
      out += "\nEXAMPLES:\n"
      for e in spec.examples { out += "  \(e)\n" }
    }
    return out
  }

  static func rows(_ items: [(String, String)]) -> String {
    let width = min(28, (items.map(\.0.count).max() ?? 0) + 2)
    var out = ""
    for (label, text) in items {
      if label.count + 2 > width {
        out += "  \(label)\n" + String(repeating: " ", count: width + 2) + text + "\n"
      } else {
        out += "  " + label + String(repeating: " ", count: width - label.count) + text + "\n"
      }
    }
    return out
  }

  static func mainHelp(commands: [CommandSpec]) -> String {
    var out = """
      OVERVIEW: Index geotagged photos and ask what was taken near a place.

      USAGE: geophoto <subcommand> [options]

      OPTIONS:
        --version               Show the version.
        --generate-completion-script <bash|zsh|fish>
                                Print a shell completion script.
        --generate-manual       Print the manual page (roff).
        -h, --help              Show help information.

      SUBCOMMANDS:

      """
    out += rows(commands.map { ($0.name, $0.abstract) })
    out += "\n  See 'geophoto help <subcommand>' for detailed help.\n"
    return out
  }
}
