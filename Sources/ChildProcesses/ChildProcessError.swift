/// A program could not be started, or a program run to its end failed; the description says which and why.
package struct ChildProcessError: Error, CustomStringConvertible {
    package let description: String

    package init(_ description: String) { self.description = description }
}
