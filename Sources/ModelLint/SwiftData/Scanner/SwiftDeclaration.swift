/// An attribute as written before a declaration: `@Attribute(.unique, originalName: "old")`.
package struct SwiftAttribute: Sendable, Equatable {
    package var name: String
    /// The tokens between the parentheses (none without them).
    package var arguments: Range<Int>?
    package var line: Int
}

/// One declaration the scanner read: a type, extension, alias, stored or computed property, function or
/// initializer, or a freestanding macro (`#Unique<T>(…)`) in a type's body. Tokens are kept as ranges into the
/// file's tokens; nothing is evaluated.
package struct SwiftDeclaration: Sendable {
    package enum Kind: String, Sendable {
        case `class`, `struct`, `enum`, `actor`, `protocol`, `extension`, `typealias`
        case `var`, `let`, `func`, `initializer`
        /// A freestanding macro in a body (`#Unique`, `#Index`): `name` is the macro's.
        case macro
    }

    package var kind: Kind
    /// The declared name; for an extension, the extended type as written (`V2` or `Outer.Inner`).
    package var name: String
    package var line: Int
    package var column: Int
    package var attributes: [SwiftAttribute] = []
    package var modifiers: [String] = []
    /// Names after `:` in a type or extension header (`VersionedSchema`, `PersistentModel`), dotted as written.
    package var inherited: [String] = []
    /// A property's type annotation, an alias's target, a macro's generic arguments.
    package var type: Range<Int>?
    /// A property's initializer expression, a macro's arguments.
    package var initializer: Range<Int>?
    /// The tokens between a body's braces: a type's members, a function's statements, a property's accessors.
    package var body: Range<Int>?
    package var members: [SwiftDeclaration] = []
    /// The `#if` branches this declaration is inside: every branch is read, since which one is compiled cannot be
    /// known.
    package var conditions = SwiftConditions.none

    package func hasAttribute(_ name: String) -> Bool { attributes.contains { $0.name == name } }
    package func attribute(_ name: String) -> SwiftAttribute? { attributes.first { $0.name == name } }
    package var isStatic: Bool { modifiers.contains("static") || modifiers.contains("class") }
    package var isType: Bool {
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
package struct SwiftSourceFile: Sendable {
    /// As displayed.
    package var path: String
    package var tokens: [SwiftToken]
    package var declarations: [SwiftDeclaration]
    /// For each opening bracket token, the index after the bracket that closes it.
    package var bracketEnds: SwiftBracketEnds
    /// The scanner's work: tokens visited and declarations built (tests hold it linear in the file's size).
    package var readingSteps: Int

    package init(path: String, bytes: [UInt8]) {
        self.path = path
        tokens = SwiftLexer.tokens(bytes)
        bracketEnds = SwiftBracketEnds(tokens)
        var parser = SwiftDeclarationParser(tokens: tokens, bracketEnds: bracketEnds)
        declarations = parser.parse()
        readingSteps = parser.steps
    }

    /// A parser over this file's tokens, to skip bracketed groups while reading them.
    package var parser: SwiftDeclarationParser { SwiftDeclarationParser(tokens: tokens, bracketEnds: bracketEnds) }

    /// The tokens' texts in a range, joined with single spaces where the source had space (for messages).
    package func text(_ range: Range<Int>) -> String {
        tokens[range].map { $0.kind == .string ? "\"\($0.text)\"" : $0.kind == .attribute ? "@" + $0.text : $0.text }
            .joined()
    }
}
