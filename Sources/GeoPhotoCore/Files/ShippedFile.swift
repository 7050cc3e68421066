public import Foundation

/// Where a data file geophoto ships (the gazetteer, the basemap) is: in SwiftPM's resource
/// folder beside the running executable, or in `share/geophoto` of the prefix it is installed
/// in (`make install`, the Debian package).
public enum ShippedFile {
  /// The file `name` of the resources of `module` (`GeoPhotoPlaces`), if it is there.
  public static func url(named name: String, module: String) -> URL? {
    // The running binary's own path: argv[0] is only "geophoto" when it was found on PATH.
    let path =
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments.first ?? ""
    let executable = URL(fileURLWithPath: path).resolvingSymlinksInPath().deletingLastPathComponent()
    let candidates = [
      executable.appendingPathComponent("geophoto_\(module).resources/\(name)"),
      executable.deletingLastPathComponent().appendingPathComponent("share/geophoto/\(name)"),
    ]
    return candidates.first { FileManager.default.fileExists(atPath: $0.path) }
  }
}
