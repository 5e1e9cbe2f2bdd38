/// Where an element starts in a `contents` file: 1-based line and column of its `<`.
public struct SourceLocation: Hashable, Sendable, Comparable {
    /// The file's path as modellint was given it (absolute or relative to the working directory).
    public var file: String
    // Every element of every version carries a location, so it is kept small: 32-bit line and column, -1 for none.
    // No file modellint reads has a line or column past 2^31 - 1 (each has a size limit far below 2 GB): a larger
    // number is kept as 2^31 - 1, a negative one as 0.
    private var storedLine: Int32
    private var storedColumn: Int32

    public var line: Int? {
        get { storedLine < 0 ? nil : Int(storedLine) }
        set { storedLine = Self.stored(newValue) }
    }

    public var column: Int? {
        get { storedColumn < 0 ? nil : Int(storedColumn) }
        set { storedColumn = Self.stored(newValue) }
    }

    public init(file: String, line: Int? = nil, column: Int? = nil) {
        self.file = file
        storedLine = Self.stored(line)
        storedColumn = Self.stored(column)
    }

    private static func stored(_ value: Int?) -> Int32 {
        guard let value else { return -1 }
        return Int32(clamping: max(0, value))
    }

    public static func < (a: SourceLocation, b: SourceLocation) -> Bool {
        if a.file != b.file { return a.file < b.file }
        if (a.line ?? 0) != (b.line ?? 0) { return (a.line ?? 0) < (b.line ?? 0) }
        return (a.column ?? 0) < (b.column ?? 0)
    }
}
