import ModelLintSupport

/// Where an element starts in a `contents` file: 1-based line and column of its `<`.
package struct SourceLocation: Hashable, Sendable, Comparable {
    /// The file's path as modellint was given it (absolute or relative to the working directory).
    package var file: String {
        get { sourceFile.path }
        set { sourceFile = SourceFile(newValue) }
    }
    /// The file, by number: every element of every version carries a location, and elements are copied into every
    /// diff, pair and finding; a path held here would be counted on every copy.
    package var sourceFile: SourceFile
    // Every element of every version carries a location, so it is kept small: 32-bit line and column, -1 for none.
    // No file modellint reads has a line or column past 2^31 - 1 (each has a size limit far below 2 GB): a larger
    // number is kept as 2^31 - 1, a negative one as 0.
    private var storedLine: Int32
    private var storedColumn: Int32

    package var line: Int? {
        get { storedLine < 0 ? nil : Int(storedLine) }
        set { storedLine = Self.stored(newValue) }
    }

    package var column: Int? {
        get { storedColumn < 0 ? nil : Int(storedColumn) }
        set { storedColumn = Self.stored(newValue) }
    }

    package init(file: String, line: Int? = nil, column: Int? = nil) {
        self.init(file: SourceFile(file), line: line, column: column)
    }

    package init(file: SourceFile, line: Int? = nil, column: Int? = nil) {
        sourceFile = file
        storedLine = Self.stored(line)
        storedColumn = Self.stored(column)
    }

    private static func stored(_ value: Int?) -> Int32 {
        guard let value else { return -1 }
        return Int32(clamping: max(0, value))
    }

    package static func < (a: SourceLocation, b: SourceLocation) -> Bool {
        if a.sourceFile != b.sourceFile {
            let (x, y) = (a.file, b.file)
            if x != y { return x < y }
        }
        if (a.line ?? 0) != (b.line ?? 0) { return (a.line ?? 0) < (b.line ?? 0) }
        return (a.column ?? 0) < (b.column ?? 0)
    }
}

/// A file path stored once per process and named by a number: equal numbers are byte-for-byte equal paths. The
/// numbers mean nothing outside the process (nothing stores them).
package struct SourceFile: Hashable, Sendable {
    private let number: UInt32

    package init(_ path: String) {
        number = Self.table.withLock { table in
            if let known = table.numbers[ExactName(path)] { return known }
            let number = UInt32(table.paths.count)
            table.numbers[ExactName(path)] = number
            table.paths.append(path)
            return number
        }
    }

    package var path: String { Self.table.withLock { $0.paths[Int(number)] } }

    private struct Table {
        var numbers: [ExactName: UInt32] = [:]
        var paths: [String] = []
    }

    private static let table = Locked(Table())
}
