/// Every type and type alias the files declare, by qualified name (`V2.Item`), with lexical name lookup: inside
/// `enum V2` an unqualified `Item` is `V2.Item` when V2 declares one, else an enclosing scope's, else the
/// module's. A name declared twice (two files, or two `#if` branches) resolves to nothing: it is unknown — unless
/// exactly one declaration is outside every `#if`: then the others cannot be compiled beside it (that would be a
/// redeclaration), so it is the one (a decoy `#if NEVER enum V2 {}` never hides the real `V2`).
package struct SwiftTypeIndex: Sendable {
    package struct Entry: Sendable {
        package var qualifiedName: String
        package var declaration: SwiftDeclaration
        /// Index into the files.
        package var file: Int
        /// The enclosing type's qualified name ("" at file scope).
        package var scope: String
        /// Members added by extensions, after the declaration's own, each with the file its extension is in.
        package private(set) var extensionMembers: [(declaration: SwiftDeclaration, file: Int)] = []
        /// Conformances added by extensions (`extension V1: VersionedSchema`).
        package private(set) var extensionInherited: [String] = []
        /// Positions in `members` by name: a lookup costs the same however many members a type has.
        private var positions: [String: [Int]] = [:]

        init(qualifiedName: String, declaration: SwiftDeclaration, file: Int, scope: String) {
            self.qualifiedName = qualifiedName
            self.declaration = declaration
            self.file = file
            self.scope = scope
            for (k, member) in declaration.members.enumerated() { positions[member.name, default: []].append(k) }
        }

        mutating func addExtension(_ members: [SwiftDeclaration], inherited: [String], file: Int) {
            for member in members {
                positions[member.name, default: []].append(declaration.members.count + extensionMembers.count)
                extensionMembers.append((member, file))
            }
            extensionInherited += inherited
        }

        /// The members of this name, in `members`' order.
        package func members(named name: String) -> [(declaration: SwiftDeclaration, file: Int)] {
            (positions[name] ?? []).map { k in
                k < declaration.members.count
                    ? (declaration.members[k], file) : extensionMembers[k - declaration.members.count]
            }
        }

        package var name: String { declaration.name }
        /// Every member with the file that declares it: a member's token ranges index that file's tokens.
        package var members: [(declaration: SwiftDeclaration, file: Int)] {
            declaration.members.map { ($0, file) } + extensionMembers
        }
        package var inherited: [String] { declaration.inherited + extensionInherited }
        package func conforms(to proto: String) -> Bool {
            inherited.contains { $0 == proto || $0.hasSuffix("." + proto) }
        }
    }

    package let files: [SwiftSourceFile]
    package private(set) var entries: [String: [Entry]] = [:]
    /// Qualified names in the order first declared (files in order, declarations in file order).
    package private(set) var order: [String] = []

    package init(files: [SwiftSourceFile]) {
        self.files = files
        var extensions: [(name: String, declaration: SwiftDeclaration, file: Int)] = []
        for (f, file) in files.enumerated() {
            for declaration in file.declarations {
                if declaration.kind == .extension {
                    extensions.append((declaration.name, declaration, f))
                } else {
                    register(declaration, scope: "", file: f)
                }
            }
        }
        for (name, declaration, f) in extensions {
            // Nested types an extension declares live in the extended type's scope.
            let target = resolve(name, from: "").map(\.qualifiedName) ?? name
            for member in declaration.members where member.isType || member.kind == .typealias {
                register(member, scope: target, file: f)
            }
            // In place: a copy of the list per extension would make many extensions quadratic.
            if let i = entries[target].flatMap(Self.compiled) {
                entries[target]![i].addExtension(declaration.members, inherited: declaration.inherited, file: f)
            }
        }
    }

    private mutating func register(_ declaration: SwiftDeclaration, scope: String, file: Int) {
        guard declaration.isType || declaration.kind == .typealias else { return }
        let qualified = scope.isEmpty ? declaration.name : scope + "." + declaration.name
        if entries[qualified] == nil { order.append(qualified) }
        entries[qualified, default: []].append(
            Entry(qualifiedName: qualified, declaration: declaration, file: file, scope: scope))
        for member in declaration.members { register(member, scope: qualified, file: file) }
    }

    /// Which of a name's declarations the compiler compiles: the only one, or the only one outside every `#if`
    /// (nil: none can be told).
    static func compiled(_ list: [Entry]) -> Int? {
        if list.count == 1 { return 0 }
        let unconditional = list.indices.filter { list[$0].declaration.conditions.isEmpty }
        return unconditional.count == 1 ? unconditional[0] : nil
    }

    /// The one entry of this qualified name (nil: none, or declared more than once in ways that cannot be told
    /// apart).
    package func entry(_ qualified: String) -> Entry? {
        guard let list = entries[qualified], let i = Self.compiled(list) else { return nil }
        return list[i]
    }

    /// What a written name (`Item`, `V2.Item`, `Module.V2.Item`) means inside `scope`, type aliases followed.
    package func resolve(_ written: String, from scope: String) -> Entry? {
        resolve(written, from: scope, hops: 0)
    }

    private func resolve(_ written: String, from scope: String, hops: Int) -> Entry? {
        guard hops < 8, !written.isEmpty else { return nil }
        var prefix = scope
        while true {
            let candidate = prefix.isEmpty ? written : prefix + "." + written
            if let list = entries[candidate] {
                guard let i = Self.compiled(list) else { return nil }
                let entry = list[i]
                if entry.declaration.kind == .typealias {
                    guard let target = entry.declaration.type.map({ files[entry.file].text($0) }) else { return nil }
                    return resolve(target, from: entry.scope, hops: hops + 1)
                }
                return entry
            }
            if prefix.isEmpty { break }
            prefix = prefix.lastIndex(of: ".").map { String(prefix[..<$0]) } ?? ""
        }
        // `ModuleName.Type`: a first component that is no type of these files is read as a module's name.
        if let dot = written.firstIndex(of: "."), entries[String(written[..<dot])] == nil, scope.isEmpty || hops == 0 {
            return resolve(String(written[written.index(after: dot)...]), from: "", hops: hops + 1)
        }
        return nil
    }

    /// Whether `qualified` is `ancestor` or nested in it.
    package static func isInside(_ qualified: String, _ ancestor: String) -> Bool {
        qualified == ancestor || qualified.hasPrefix(ancestor + ".")
    }
}
