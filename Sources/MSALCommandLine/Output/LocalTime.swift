import Foundation

/// A time in seconds since 1970 in the local time zone (`TZ`, else the system's), formatted with the C library
/// (`localtime_r`, `strftime`): a script's `msal token --format az` loads no calendar tables.
enum LocalTime {
    /// `2025-03-01 14:05:09.000000`: how Azure CLI prints `expiresOn` (Python's `datetime.fromtimestamp` of a whole
    /// number of seconds).
    static func azureCLI(_ seconds: Int) -> String {
        format(seconds, "%Y-%m-%d %H:%M:%S") + ".000000"
    }

    /// `2025-03-01 14:05:09 CET`: a claim's time, as `msal decode` shows it.
    static func readable(_ seconds: Int) -> String {
        format(seconds, "%Y-%m-%d %H:%M:%S %Z")
    }

    private static func format(_ seconds: Int, _ pattern: String) -> String {
        tzset()
        var time = time_t(seconds)
        var parts = tm()
        guard localtime_r(&time, &parts) != nil else { return String(seconds) }
        var buffer = [CChar](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, pattern, &parts)
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
