import GeoPhotoCore

/// The manual page, `geophoto(1)`, made from the command specs and the settings table like
/// `--help`: a section per subcommand with its arguments and options, then the configuration
/// keys, environment variables, files and exit statuses. `make man` writes `man/geophoto.1`;
/// a test checks that it is current.
enum ManualPage {
  static func roff(commands: [CommandSpec]) -> String {
    var out = """
      .\\" The manual of geophoto, made by 'geophoto --generate-manual' (make man): do not edit.
      .TH GEOPHOTO 1 "" "geophoto \(GeoPhotoVersion.current)" "User Commands"
      .SH NAME
      geophoto \\- index geotagged photos and ask what was taken near a place
      .SH SYNOPSIS
      .B geophoto
      .I subcommand
      .RI [ options ]
      .br
      .B geophoto
      .B \\-\\-help
      |
      .B \\-\\-version
      |
      .BI \\-\\-generate\\-completion\\-script " bash|zsh|fish"
      .SH DESCRIPTION
      geophoto reads the GPS position, capture time, title and camera of the photos in your folders into
      one index, names each photo's place offline, pulls public photos from Flickr and Wikimedia Commons
      into the same index, lists the photos nearest to a place, serves them to map clients over HTTP,
      and works with routes, directions, map snapshots and GPS tracks.
      .SH COMMANDS

      """
    for spec in commands {
      out += ".SS \"\(text(spec.usage))\"\n\(text(spec.abstract))\n"
      if let discussion = spec.discussion { out += ".PP\n\(text(discussion))\n" }
      for a in spec.arguments {
        out += ".TP\n.I \(text("<\(a.name)>"))\(a.repeating ? " ..." : "")\n\(text(a.help))\n"
      }
      for o in spec.options {
        var label = ".B \\-\\-\(option(o.long))"
        if let short = o.short { label = ".B \\-\(short) \", \" \\-\\-\(option(o.long))" }
        if let value = o.valueName { label = ".BI " + label.dropFirst(3) + " \" \(text(value))\"" }
        var help = text(o.help)
        let notes = [o.defaultText.map { "default: \($0)" }, o.environment.map { "also \($0)" }].compactMap { $0 }
        if !notes.isEmpty { help += " (" + text(notes.joined(separator: "; ")) + ")" }
        out += ".TP\n\(label)\n\(help)\n"
      }
      if !spec.examples.isEmpty {
        out += ".PP\nExamples:\n.RS\n.nf\n" + spec.examples.map(text).joined(separator: "\n") + "\n.fi\n.RE\n"
      }
    }
    out += """
      .PP
      Every subcommand also takes
      .BI \\-\\-db " path|url"
      (the index),
      .BI \\-\\-config " path"
      and
      .BR \\-h ", " \\-\\-help .
      .SH CONFIGURATION
      Settings come, in order of precedence, from command-line flags, GEOPHOTO_* environment variables, the
      configuration file, then built-in defaults. The file holds one
      .I key = value
      per line; # starts a comment at the start of a line or after a space; a value may be quoted.
      The keys:

      """
    for s in Setting.all {
      var line =
        ".TP\n.B \(text(s.key))\n\(text(s.help)). Default: \(text(s.defaultText)). Environment: \(s.environment)"
      if let flag = s.flag { line += "; flag: \(flag.command.map { "\($0) " } ?? "")\\-\\-\(option(flag.long))" }
      out += line + ".\n"
    }
    out += """
      .SH ENVIRONMENT
      .TP
      .B GEOPHOTO_CONFIG
      The configuration file.
      .TP
      .BR XDG_CONFIG_HOME ", " XDG_DATA_HOME ", " XDG_CACHE_HOME
      Where the configuration file, the index and cached map tiles go (see FILES).
      .PP
      Each setting's variable is listed under CONFIGURATION.
      .SH FILES
      .TP
      .I ~/.config/geophoto/config
      The configuration file.
      .TP
      .I ~/.local/share/geophoto/index.sqlite
      The index; beside it
      .I index.sqlite.spatial
      (its spatial index: the kd-tree and the map's cluster hierarchy) and
      .I places.gaz
      (place names imported with
      .BR "geophoto places import" ).
      .TP
      .I share/geophoto/places\\-cities500.gaz
      The place names geophoto ships (GeoNames, CC BY 4.0), beside the installed binary's folder.
      .TP
      .I ~/.cache/geophoto/tiles
      Map tiles fetched for snapshots.
      .TP
      .I ~/.cache/geophoto/postgres\\-*.spatial
      The spatial index a server keeps of a PostgreSQL index (in
      .B $CACHE_DIRECTORY
      under systemd).
      .SH EXIT STATUS
      .TP
      .B 0
      Success.
      .TP
      .B 1
      The command ran and failed; one line starting with Error: says why.
      .TP
      .B 64
      The command was called wrongly; the error, the usage line and a \\-\\-help hint go to standard error.
      .SH SEE ALSO
      The README of geophoto, and
      .I http://127.0.0.1:8080/openapi.json
      of a running
      .BR "geophoto serve" .

      """
    return out
  }

  /// Text for a roff line: backslashes escaped, and a line that would read as a request
  /// (starting with `.` or `'`) protected.
  static func text(_ s: String) -> String {
    var escaped = ""
    for scalar in s.unicodeScalars {
      if scalar == "\\" {
        escaped += "\\e"
      } else if let ascii = Self.ascii[scalar] {
        escaped += ascii
      } else if scalar.value > 127 {
        // groff reads ASCII: everything else as its Unicode name (`\[u2026]` for …).
        let hex = String(scalar.value, radix: 16, uppercase: true)
        escaped += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
      } else {
        escaped.unicodeScalars.append(scalar)
      }
    }
    return escaped.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      line.hasPrefix(".") || line.hasPrefix("'") ? "\\&" + line : String(line)
    }.joined(separator: "\n")
  }

  /// Characters the help texts use, as a terminal without Unicode shows them.
  static let ascii: [Unicode.Scalar: String] = [
    "\u{2026}": "...", "\u{2192}": "\\->", "\u{00D7}": "x", "\u{00B1}": "+/\\-", "\u{00A9}": "(c)", "\u{00B7}": "-",
    "\u{2013}": "\\-", "\u{2014}": "\\-\\-", "\u{00B0}": " degrees",
  ]

  /// An option name with its hyphens as roff's minus signs.
  static func option(_ name: String) -> String { name.replacing("-", with: "\\-") }
}
