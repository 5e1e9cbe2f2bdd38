/// Where an element starts in a `contents` file: 1-based line and column of its `<`.
public struct SourceLocation: Hashable, Sendable, Comparable {
    /// The file's path as modellint was given it (absolute or relative to the working directory).
    public var file: String
    public var line: Int?
    public var column: Int?

    public init(file: String, line: Int? = nil, column: Int? = nil) {
        self.file = file
        self.line = line
        self.column = column
    }

    public static func < (a: SourceLocation, b: SourceLocation) -> Bool {
        if a.file != b.file { return a.file < b.file }
        if (a.line ?? 0) != (b.line ?? 0) { return (a.line ?? 0) < (b.line ?? 0) }
        return (a.column ?? 0) < (b.column ?? 0)
    }
}
