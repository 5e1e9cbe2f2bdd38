/// An attribute as written before a declaration: `@Attribute(.unique, originalName: "old")`.
public struct SwiftAttribute: Sendable, Equatable {
    public var name: String
    /// The tokens between the parentheses (none without them).
    public var arguments: Range<Int>?
    public var line: Int
}

/// One declaration the scanner read: a type, extension, alias, stored or computed property, function or
/// initializer, or a freestanding macro (`#Unique<T>(…)`) in a type's body. Tokens are kept as ranges into the
/// file's tokens; nothing is evaluated.
public struct SwiftDeclaration: Sendable {
    public enum Kind: String, Sendable {
        case `class`, `struct`, `enum`, `actor`, `protocol`, `extension`, `typealias`
        case `var`, `let`, `func`, `initializer`
        /// A freestanding macro in a body (`#Unique`, `#Index`): `name` is the macro's.
        case macro
    }

    public var kind: Kind
    /// The declared name; for an extension, the extended type as written (`V2` or `Outer.Inner`).
    public var name: String
    public var line: Int
    public var column: Int
    public var attributes: [SwiftAttribute] = []
    public var modifiers: [String] = []
    /// Names after `:` in a type or extension header (`VersionedSchema`, `PersistentModel`), dotted as written.
    public var inherited: [String] = []
    /// A property's type annotation, an alias's target, a macro's generic arguments.
    public var type: Range<Int>?
    /// A property's initializer expression, a macro's arguments.
    public var initializer: Range<Int>?
    /// The tokens between a body's braces: a type's members, a function's statements, a property's accessors.
    public var body: Range<Int>?
    public var members: [SwiftDeclaration] = []
    /// The `#if` branches this declaration is inside, outermost first (`DEBUG`, `!DEBUG`, `os(iOS)`): every branch
    /// is read, since which one is compiled cannot be known.
    public var conditions: [String] = []

    public func hasAttribute(_ name: String) -> Bool { attributes.contains { $0.name == name } }
    public func attribute(_ name: String) -> SwiftAttribute? { attributes.first { $0.name == name } }
    public var isStatic: Bool { modifiers.contains("static") || modifiers.contains("class") }
    public var isType: Bool {
        switch kind {
        case .class, .struct, .enum, .actor, .protocol: return true
        default: return false
        }
    }

    init(kind: Kind, name: String, line: Int, column: Int) {
        self.kind = kind
        self.name = name
        self.line = line
        self.column = column
    }
}

/// A Swift file as the scanner read it.
public struct SwiftSourceFile: Sendable {
    /// As displayed.
    public var path: String
    public var tokens: [SwiftToken]
    public var declarations: [SwiftDeclaration]

    public init(path: String, bytes: [UInt8]) {
        self.path = path
        tokens = SwiftLexer.tokens(bytes)
        var parser = SwiftDeclarationParser(tokens: tokens)
        declarations = parser.parse()
    }

    /// The tokens' texts in a range, joined with single spaces where the source had space (for messages).
    public func text(_ range: Range<Int>) -> String {
        tokens[range].map { $0.kind == .string ? "\"\($0.text)\"" : $0.kind == .attribute ? "@" + $0.text : $0.text }
            .joined()
    }
}
