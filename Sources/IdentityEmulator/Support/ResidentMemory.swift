import Foundation

/// The process's resident memory, as the kernel counts it.
public enum ResidentMemory {
    /// `VmRSS` from `/proc/self/status` in bytes, or nil where there is no such file (not Linux).
    public static func bytes() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kibibytes = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { return nil }
        return kibibytes * 1024
    }
}
