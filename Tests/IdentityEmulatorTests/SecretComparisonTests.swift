import Testing

@testable import IdentityEmulator

/// Bytes that count how many of them were read.
private final class CountedBytes: Collection {
    let bytes: [UInt8]
    private(set) var reads = 0

    init(_ text: String) { bytes = Array(text.utf8) }

    var startIndex: Int { bytes.startIndex }
    var endIndex: Int { bytes.endIndex }
    func index(after i: Int) -> Int { i + 1 }
    subscript(position: Int) -> UInt8 {
        reads += 1
        return bytes[position]
    }
}

@Suite("Secrets compared in constant time")
struct SecretComparisonTests {
    @Test("equal only when every byte and the length agree; nil matches nothing")
    func answers() {
        #expect(SecretComparison.matches("s3cret-value", "s3cret-value"))
        #expect(!SecretComparison.matches("X3cret-value", "s3cret-value"))
        #expect(!SecretComparison.matches("s3cret-valuX", "s3cret-value"))
        #expect(!SecretComparison.matches("s3cret", "s3cret-value"))
        #expect(!SecretComparison.matches("s3cret-value-and-more", "s3cret-value"))
        #expect(!SecretComparison.matches("", "s3cret-value"))
        #expect(!SecretComparison.matches(nil, "s3cret-value"))
        #expect(!SecretComparison.matches("s3cret-value", nil))
    }

    @Test(
        "every byte of both is read wherever they differ, so the time taken says nothing of how much was right",
        arguments: [
            ("Xbcdefghijklmnop", "abcdefghijklmnop"), ("abcdefghijklmnoX", "abcdefghijklmnop"),
            ("abcdefghijklmnop", "abcdefghijklmnop"), ("a", "abcdefghijklmnop"), ("abcdefghijklmnop", ""),
        ])
    func readsEverything(given: String, expected: String) {
        let (left, right) = (CountedBytes(given), CountedBytes(expected))
        _ = SecretComparison.equal(left, right)
        #expect(left.reads == left.count)
        #expect(right.reads == right.count)
    }
}
