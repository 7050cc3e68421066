/// Shell completion scripts made from the command specs, so they offer exactly what the parser
/// accepts: `geophoto --generate-completion-script bash|zsh|fish` (swift-argument-parser's
/// spelling).
enum CompletionScript {
  enum Shell: String, CaseIterable {
    case bash, zsh, fish
  }

  static func script(for shell: Shell, commands: [CommandSpec]) -> String {
    switch shell {
    case .bash: return bash(commands)
    case .zsh: return zsh(commands)
    case .fish: return fish(commands)
    }
  }

  /// The option's spellings: `--limit -n`.
  static func names(_ o: CommandSpec.Option) -> [String] { ["--\(o.long)"] + (o.short.map { ["-\($0)"] } ?? []) }

  /// The first sentence of a help text, without what a shell would misread.
  static func summary(_ help: String) -> String {
    let sentence = help.split(separator: ".", maxSplits: 1).first.map(String.init) ?? help
    return sentence.filter { $0 != "'" && $0 != "\"" && $0 != "`" && $0 != "$" && $0 != "\\" }
  }

  // MARK: - bash

  static func bash(_ commands: [CommandSpec]) -> String {
    func reply(_ completion: CommandSpec.Completion?) -> String {
      switch completion {
      case .values(let words)?: return "COMPREPLY=($(compgen -W \"\(words.joined(separator: " "))\" -- \"$cur\"))"
      case .file?: return "compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- \"$cur\"))"
      case .directory?: return "compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- \"$cur\"))"
      case nil: return "COMPREPLY=()"
      }
    }
    var out = """
      # bash completion for geophoto, made by 'geophoto --generate-completion-script bash'.
      _geophoto() {
        local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"
        if [[ $COMP_CWORD -eq 1 ]]; then
          COMPREPLY=($(compgen -W "\(commands.map(\.name).joined(separator: " ")) help --help -h --version" -- "$cur"))
          return
        fi
        case "${COMP_WORDS[1]}" in
          help)
            [[ $COMP_CWORD -eq 2 ]] && COMPREPLY=($(compgen -W "\(commands.map(\.name).joined(separator: " "))" -- "$cur"))
            ;;

      """
    for spec in commands {
      let options = spec.allOptions
      let valued = options.filter { $0.valueName != nil }
      out += "    \(spec.name))\n      case \"$prev\" in\n"
      for o in valued {
        out += "        \(names(o).joined(separator: "|"))) \(reply(o.completion)); return ;;\n"
      }
      out += "      esac\n"
      let all = options.flatMap(names).joined(separator: " ")
      out += "      if [[ \"$cur\" == -* ]]; then COMPREPLY=($(compgen -W \"\(all)\" -- \"$cur\")); return; fi\n"
      guard !spec.arguments.isEmpty else {
        out += "      COMPREPLY=()\n      ;;\n"
        continue
      }
      // Which positional argument the word is: options and their values do not count.
      let takesValue = valued.flatMap(names).joined(separator: "|")
      out += """
              local n=0 i
              for ((i = 2; i < COMP_CWORD; i++)); do
                case "${COMP_WORDS[i]}" in
                  \(takesValue)) ((i++)) ;;
                  -*) ;;
                  *) ((n++)) ;;
                esac
              done
              case $n in

        """
      for (i, argument) in spec.arguments.enumerated() {
        let last = i == spec.arguments.count - 1
        out += "        \(last && argument.repeating ? "*" : String(i))) \(reply(argument.completion)) ;;\n"
      }
      out += "        *) COMPREPLY=() ;;\n      esac\n      ;;\n"
    }
    out += "  esac\n}\ncomplete -F _geophoto geophoto\n"
    return out
  }

  // MARK: - zsh

  /// Text inside a zsh `_arguments` spec: brackets and colons escaped, no single quotes.
  static func zshText(_ text: String) -> String {
    summary(text).replacing("[", with: "\\[").replacing("]", with: "\\]").replacing(":", with: "\\:")
  }

  static func zshAction(_ completion: CommandSpec.Completion?) -> String {
    switch completion {
    case .values(let words)?: return "(\(words.joined(separator: " ")))"
    case .file?: return "_files"
    case .directory?: return "_files -/"
    case nil: return " "
    }
  }

  static func zsh(_ commands: [CommandSpec]) -> String {
    var out = """
      #compdef geophoto
      # zsh completion for geophoto, made by 'geophoto --generate-completion-script zsh'.

      _geophoto() {
        local -a commands
        commands=(

      """
    for spec in commands { out += "    '\(spec.name):\(summary(spec.abstract).replacing(":", with: "\\:"))'\n" }
    out += """
        )
        if (( CURRENT == 2 )); then
          _describe -t commands 'geophoto command' commands
          return
        fi
        local command=$words[2]
        shift words
        (( CURRENT-- ))
        case $command in
          help) _describe -t commands 'geophoto command' commands ;;

      """
    for spec in commands {
      var specs: [String] = []
      for o in spec.allOptions {
        let text = zshText(o.help)
        let value = o.valueName.map { ":\(zshText($0)):\(zshAction(o.completion))" } ?? ""
        let star = o.repeating ? "*" : ""
        if let short = o.short {
          specs.append("'\(star)(--\(o.long) -\(short))'{--\(o.long),-\(short)}'[\(text)]\(value)'")
        } else {
          specs.append("'\(star)--\(o.long)[\(text)]\(value)'")
        }
      }
      for (i, a) in spec.arguments.enumerated() {
        let position = a.repeating && i == spec.arguments.count - 1 ? "*" : String(i + 1)
        let optional = a.optional ? ":" : ""
        specs.append("'\(position):\(optional)\(zshText(a.name)):\(zshAction(a.completion))'")
      }
      out += "    \(spec.name))\n      _arguments -s \\\n"
      out += specs.map { "        \($0)" }.joined(separator: " \\\n") + "\n      ;;\n"
    }
    out += "  esac\n}\n\n_geophoto \"$@\"\n"
    return out
  }

  // MARK: - fish

  static func fish(_ commands: [CommandSpec]) -> String {
    let names = commands.map(\.name).joined(separator: " ")
    var out = """
      # fish completion for geophoto, made by 'geophoto --generate-completion-script fish'.
      complete -c geophoto -f
      complete -c geophoto -n '__fish_use_subcommand' -l help -s h -d 'Show help information'
      complete -c geophoto -n '__fish_use_subcommand' -l version -d 'Show the version'
      complete -c geophoto -n '__fish_use_subcommand' -a help -d 'Show help for a subcommand'
      complete -c geophoto -n '__fish_seen_subcommand_from help' -a '\(names)'

      """
    for spec in commands {
      out += "complete -c geophoto -n '__fish_use_subcommand' -a \(spec.name) -d '\(summary(spec.abstract))'\n"
      let condition = "-n '__fish_seen_subcommand_from \(spec.name)'"
      for o in spec.allOptions {
        var line = "complete -c geophoto \(condition) -l \(o.long)"
        if let short = o.short { line += " -s \(short)" }
        line += " -d '\(summary(o.help))'"
        if o.valueName != nil {
          switch o.completion {
          case .values(let words)?: line += " -x -a '\(words.joined(separator: " "))'"
          case .file?: line += " -r -F"
          case .directory?: line += " -x -a '(__fish_complete_directories)'"
          case nil: line += " -x"
          }
        }
        out += line + "\n"
      }
      for argument in spec.arguments {
        switch argument.completion {
        case .values(let words)?: out += "complete -c geophoto \(condition) -a '\(words.joined(separator: " "))'\n"
        case .file?: out += "complete -c geophoto \(condition) -F\n"
        case .directory?: out += "complete -c geophoto \(condition) -a '(__fish_complete_directories)'\n"
        case nil: break
        }
      }
    }
    return out
  }
}
