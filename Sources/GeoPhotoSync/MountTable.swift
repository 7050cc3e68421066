internal import Foundation

/// The filesystems folders live on, from the kernel's mount table: a watcher polls those that
/// do not tell inotify about changes made elsewhere (network shares, FUSE).
public enum MountTable {
  /// One mount: where it is and what filesystem it is.
  public struct Mount: Equatable, Sendable {
    public var point: String
    public var type: String
  }

  /// Every mount of this process's view (`/proc/self/mountinfo`), in the table's order.
  public static func mounts(table: String? = nil) -> [Mount] {
    guard let text = table ?? (try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8)) else { return [] }
    var mounts: [Mount] = []
    for line in text.split(separator: "\n") {
      // "36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue"
      let fields = line.split(separator: " ", omittingEmptySubsequences: true)
      guard fields.count >= 7, let dash = fields.firstIndex(of: "-"), dash + 1 < fields.count else { continue }
      mounts.append(Mount(point: unescape(String(fields[4])), type: String(fields[dash + 1])))
    }
    return mounts
  }

  /// The mount that holds `path` (an absolute, symlink-free path): the last one mounted at its
  /// longest mount point.
  public static func mount(of path: String, in mounts: [Mount]) -> Mount? {
    var best: Mount?
    for mount in mounts {
      let prefix = mount.point.hasSuffix("/") ? mount.point : mount.point + "/"
      guard path == mount.point || path.hasPrefix(prefix) else { continue }
      if best == nil || mount.point.count >= (best?.point.count ?? 0) { best = mount }
    }
    return best
  }

  /// Filesystems whose files change without the kernel here knowing: NFS, SMB/CIFS, other
  /// network filesystems, and FUSE (sshfs, rclone and the like).
  public static func isRemote(type: String) -> Bool {
    let remote: Set<String> = [
      "nfs", "nfs4", "cifs", "smb3", "smbfs", "9p", "afs", "ceph", "glusterfs", "lustre", "davfs", "ncpfs", "gpfs",
      "fuseblk", "fuse",
    ]
    return remote.contains(type) || type.hasPrefix("fuse.")
  }

  /// mountinfo writes space, tab, newline and backslash in octal (`\040`).
  static func unescape(_ field: String) -> String {
    guard field.contains("\\") else { return field }
    var bytes: [UInt8] = []
    var utf8 = Array(field.utf8)[...]
    while let byte = utf8.first {
      utf8 = utf8.dropFirst()
      if byte == UInt8(ascii: "\\"), utf8.count >= 3,
        let value = UInt8(String(decoding: utf8.prefix(3), as: UTF8.self), radix: 8)
      {
        bytes.append(value)
        utf8 = utf8.dropFirst(3)
      } else {
        bytes.append(byte)
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
