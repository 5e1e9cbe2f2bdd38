import ModelLintSupport
import ModelLintModel

/// Reads the SwiftData schema sets of a module's Swift files: `@Model` classes, `VersionedSchema` types,
/// `SchemaMigrationPlan`s and the containers the app builds, each schema built into Core Data's model (the
/// mapping of docs/swiftdata.md). Nothing is compiled or run; what cannot be resolved is unknown, never guessed.
package enum SwiftDataReader {
    /// Whether a file mentions SwiftData (or Core Data classes) at all: a byte search, before any parse.
    package static func mentionsSwiftData(_ bytes: [UInt8]) -> Bool {
        for word in keywords where ByteSearch.firstIndex(of: word, in: bytes) != nil { return true }
        return false
    }

    /// What a file that takes part mentions. A plan's stages, a schema's `models` or `versionIdentifier` may be
    /// declared in an extension in a file of its own (`extension Plan { static let v1ToV2 = MigrationStage… }`).
    package static let mentionWords = [
        "@Model", "VersionedSchema", "SchemaMigrationPlan", "MigrationStage", "PersistentModel", "Schema.Version",
        "ModelContainer", "modelContainer", "FetchDescriptor", "@Query", "NSManagedObject",
    ]
    static let keywords: [[UInt8]] = mentionWords.map { Array($0.utf8) }

    /// The schema sets of these files (one module): one per plan, then one for the schemas or models no plan lists.
    package static func schemaSets(_ files: [SwiftSourceFile], moduleName: String) -> [SwiftSchemaSet] {
        schemaSetsCountingSteps(files, moduleName: moduleName).sets
    }

    /// The schema sets, and the reading's work (tokens visited, lists followed) for tests that hold it linear.
    package static func schemaSetsCountingSteps(_ files: [SwiftSourceFile], moduleName: String) -> (
        sets: [SwiftSchemaSet], steps: Int
    ) {
        let index = SwiftTypeIndex(files: files)
        var reader = Reading(index: index)
        let sets = reader.sets(moduleName: moduleName)
        return (sets, reader.progress.steps)
    }

    struct Reading {
        let index: SwiftTypeIndex
        var files: [SwiftSourceFile] { index.files }

        /// What one reading has done: its work, and each schema's listed models once followed (a list built from
        /// other lists, `V2.models + V2.models`, is read once per schema, never once per path to it).
        final class Progress {
            var steps = 0
            var listedModels: [String: ([(String, SwiftToken, Int)], unresolved: [String])] = [:]
            /// Every `let`/`var` at file scope or in a type, by name, with its file and scope: built once, the first
            /// time a stage constant is not the plan's own.
            var constants: [String: [(SwiftDeclaration, Int, String)]]?
        }
        let progress = Progress()
        func step() { progress.steps += 1 }

        func location(_ entry: SwiftTypeIndex.Entry) -> SwiftLocation {
            SwiftLocation(file: files[entry.file].path, line: entry.declaration.line, column: entry.declaration.column)
        }

        func isModelClass(_ entry: SwiftTypeIndex.Entry) -> Bool {
            entry.declaration.kind == .class && entry.declaration.hasAttribute("Model")
        }

        /// Qualified names of the `VersionedSchema` types, in declaration order.
        var schemaTypes: [String] {
            index.order.filter { name in index.entry(name).map { $0.conforms(to: "VersionedSchema") } ?? false }
        }

        var planTypes: [String] {
            index.order.filter { name in index.entry(name).map { $0.conforms(to: "SchemaMigrationPlan") } ?? false }
        }

        /// The enclosing `VersionedSchema` of a qualified name, if any.
        func enclosingSchema(_ qualified: String) -> String? {
            var prefix = qualified
            while let dot = prefix.lastIndex(of: ".") {
                prefix = String(prefix[..<dot])
                if let entry = index.entry(prefix), entry.conforms(to: "VersionedSchema") { return prefix }
            }
            return nil
        }

        /// The static member of this name (its tokens: initializer, else body) in a type's members.
        func staticMember(_ name: String, of entry: SwiftTypeIndex.Entry) -> (SwiftDeclaration, Int)? {
            for (member, file) in entry.members(named: name) where member.kind == .var || member.kind == .let {
                return (member, file)
            }
            return nil
        }

        func tokens(of declaration: SwiftDeclaration) -> Range<Int>? { declaration.initializer ?? declaration.body }

        /// `X.self` references in a token range, as written (`V2.Item`).
        static func selfReferences(_ tokens: ArraySlice<SwiftToken>, progress: Progress? = nil) -> [(
            name: String, token: SwiftToken
        )] {
            var found: [(String, SwiftToken)] = []
            var k = tokens.startIndex
            while k < tokens.endIndex {
                progress?.steps += 1
                // A dotted chain read forward once (`V2.Item.self`): the names before its first `self`. `X.self.self`
                // is `X.self`, so the rest of the chain names nothing more.
                guard tokens[k].kind == .identifier else {
                    k += 1
                    continue
                }
                let first = tokens[k]
                var parts: [String] = []
                var named = false
                while k < tokens.endIndex, tokens[k].kind == .identifier {
                    progress?.steps += 1
                    if tokens[k].text == "self", !parts.isEmpty, !named {
                        found.append((parts.joined(separator: "."), first))
                        named = true
                    }
                    if !named { parts.append(tokens[k].text) }
                    guard k + 2 < tokens.endIndex, tokens[k + 1].isPunctuation(".") else { break }
                    k += 2
                }
                k += 1
            }
            return found
        }

        /// The model types a schema's `models` lists, resolved from inside the schema; with names that could not
        /// be resolved. `V1.models + [C.self]` follows V1's list.
        /// Each type is listed once, where first written: a schema is a set of types.
        func listedModels(of schema: String, visited: Set<String> = []) -> (
            [(String, SwiftToken, Int)], unresolved: [String]
        ) {
            step()
            if let known = progress.listedModels[schema] { return known }
            guard !visited.contains(schema), let entry = index.entry(schema),
                let (member, file) = staticMember("models", of: entry), let range = tokens(of: member)
            else { return ([], ["\(schema).models"]) }
            let slice = files[file].tokens[range]
            var listed: [(String, SwiftToken, Int)] = []
            var unresolved: [String] = []
            var seen = Set<String>()
            var missed = Set<String>()
            for (written, token) in Self.selfReferences(slice, progress: progress) {
                step()
                if let target = index.resolve(Self.withoutSelf(written), from: schema), isModelClass(target) {
                    if seen.insert(target.qualifiedName).inserted { listed.append((target.qualifiedName, token, file)) }
                } else if missed.insert(written).inserted {
                    unresolved.append(written)
                }
            }
            // `Other.models`: another schema's list.
            var k = slice.startIndex
            while k < slice.endIndex {
                step()
                if slice[k].isIdentifier("models"), k - 2 >= slice.startIndex, slice[k - 1].isPunctuation("."),
                    slice[k - 2].kind == .identifier,
                    let other = index.resolve(slice[k - 2].text, from: schema), other.conforms(to: "VersionedSchema")
                {
                    let (more, missing) = listedModels(of: other.qualifiedName, visited: visited.union([schema]))
                    for model in more where seen.insert(model.0).inserted { listed.append(model) }
                    for name in missing where missed.insert(name).inserted { unresolved.append(name) }
                }
                k += 1
            }
            progress.listedModels[schema] = (listed, unresolved)
            return (listed, unresolved)
        }

        /// `Self.Item` and `self.Item` inside a type name its own `Item`.
        static func withoutSelf(_ written: String) -> String {
            for prefix in ["Self.", "self."] where written.hasPrefix(prefix) { return String(written.dropFirst(5)) }
            return written
        }

        /// The elements of the array literal a property's tokens hold (`[a, b]`, `{ [a, b] }`, `{ return [a, b] }`),
        /// as token ranges; nil when they hold something else (a concatenation, a call).
        static func arrayElements(_ slice: ArraySlice<SwiftToken>) -> [Range<Int>]? {
            var k = slice.startIndex
            while k < slice.endIndex, slice[k].isPunctuation("{") || slice[k].isIdentifier("return") { k += 1 }
            guard k < slice.endIndex, slice[k].isPunctuation("[") else { return nil }
            var elements: [Range<Int>] = []
            var depth = 0
            var start = k + 1
            var j = k
            while j < slice.endIndex {
                let t = slice[j]
                if t.isPunctuation("(") || t.isPunctuation("[") || t.isPunctuation("{") {
                    depth += 1
                } else if t.isPunctuation(")") || t.isPunctuation("]") || t.isPunctuation("}") {
                    depth -= 1
                    if depth == 0 {
                        if j > start { elements.append(start..<j) }
                        // Only an array literal, then at most the closing brace of a getter.
                        let rest = slice[(j + 1)...].filter { !$0.isPunctuation("}") }
                        return rest.isEmpty ? elements : nil
                    }
                } else if depth == 1, t.isPunctuation(",") {
                    if j > start { elements.append(start..<j) }
                    start = j + 1
                }
                j += 1
            }
            return nil
        }

        /// `A.b` in tokens: the type `A` names (from `scope`) and its static member `b`, with the member's tokens.
        func memberReference(_ slice: ArraySlice<SwiftToken>, scope: String) -> (
            SwiftTypeIndex.Entry, Range<Int>, Int
        )? {
            let words = slice.map(\.text)
            guard words.count >= 3, words.count % 2 == 1,
                stride(from: 1, to: words.count, by: 2).allSatisfy({ words[$0] == "." }),
                stride(from: 0, to: words.count, by: 2).allSatisfy({ slice[slice.startIndex + $0].kind == .identifier })
            else { return nil }
            let typeName = stride(from: 0, to: words.count - 1, by: 2).map { words[$0] }.joined(separator: ".")
            guard let type = index.resolve(Self.withoutSelf(typeName), from: scope),
                let (member, file) = staticMember(words.last!, of: type), let range = tokens(of: member)
            else { return nil }
            return (type, range, file)
        }

        static func versionIdentifier(_ tokens: ArraySlice<SwiftToken>) -> String? {
            var numbers: [String] = []
            var k = tokens.startIndex
            while k < tokens.endIndex {
                if tokens[k].isPunctuation("("),
                    k > tokens.startIndex,
                    tokens[k - 1].isIdentifier("Version") || tokens[k - 1].isIdentifier("init")
                {
                    var j = k + 1
                    while j < tokens.endIndex, !tokens[j].isPunctuation(")") {
                        if tokens[j].kind == .number { numbers.append(tokens[j].text) }
                        j += 1
                    }
                    return numbers.isEmpty ? nil : numbers.joined(separator: ".")
                }
                k += 1
            }
            return nil
        }

        mutating func schema(_ qualified: String) -> SwiftSchema? {
            guard let entry = index.entry(qualified) else { return nil }
            let (listed, unresolved) = listedModels(of: qualified)
            var version: String?
            if let (member, file) = staticMember("versionIdentifier", of: entry), let range = tokens(of: member) {
                version = Self.versionIdentifier(files[file].tokens[range])
            }
            var unresolvedNames = unresolved
            if staticMember("models", of: entry) != nil {
                unresolvedNames.removeAll { $0 == "\(qualified).models" }
            }
            var schema = build(
                name: entry.name, qualified: qualified, location: location(entry), version: version,
                listed: listed.map(\.0), unresolved: unresolvedNames)
            for (type, token, file) in listed where schema.listing[type] == nil {
                schema.listing[type] = SwiftLocation(file: files[file].path, line: token.line, column: token.column)
            }
            return schema
        }

        /// The schema's model: its listed types and every type their relationships reach.
        func build(
            name: String, qualified: String, location: SwiftLocation, version: String?, listed: [String],
            unresolved: [String]
        ) -> SwiftSchema {
            var types: [String] = []
            var seen = Set<String>()
            for type in listed where seen.insert(type).inserted { types.append(type) }
            let builder = SwiftModelBuilder(index: index)
            var k = 0
            while k < types.count {
                for reached in builder.relationshipTargets(of: types[k]) where seen.insert(reached).inserted {
                    types.append(reached)
                }
                k += 1
            }
            let (model, unknown, cross) = builder.model(
                of: types, schema: qualified, enclosingSchema: { enclosingSchema($0) }, at: location)
            let models = types.compactMap { type -> SwiftModelType? in
                guard let entry = index.entry(type) else { return nil }
                return SwiftModelType(
                    qualifiedName: type, entityName: entry.name, location: self.location(entry),
                    isLive: enclosingSchema(type) == nil)
            }
            return SwiftSchema(
                name: name, qualifiedName: qualified, location: location, versionIdentifier: version, models: models,
                unresolvedModels: unresolved, model: model, unknownEntities: unknown, crossSchemaRelationships: cross)
        }

        func plannedSchemas(_ plan: SwiftTypeIndex.Entry) -> (resolved: [String], unresolved: [String]) {
            guard let (member, file) = staticMember("schemas", of: plan), let range = tokens(of: member) else {
                return ([], ["\(plan.name).schemas"])
            }
            var resolved: [String] = []
            var unresolved: [String] = []
            let slice = files[file].tokens[range]
            func take(_ written: String, from scope: String) {
                if let target = index.resolve(Self.withoutSelf(written), from: scope),
                    target.conforms(to: "VersionedSchema")
                {
                    resolved.append(target.qualifiedName)
                } else {
                    unresolved.append(written)
                }
            }
            guard let elements = Self.arrayElements(slice) else {
                for (written, _) in Self.selfReferences(slice, progress: progress) {
                    take(written, from: plan.qualifiedName)
                }
                return (resolved, unresolved)
            }
            for element in elements {
                let tokens = files[file].tokens[element]
                if let (written, _) = Self.selfReferences(tokens, progress: progress).first {
                    take(written, from: plan.qualifiedName)
                } else if let (type, memberRange, memberFile) = memberReference(tokens, scope: plan.qualifiedName),
                    let (written, _) = Self.selfReferences(files[memberFile].tokens[memberRange], progress: progress)
                        .first
                {
                    // `MigrateToV2.toVersion`: a static member holding the schema.
                    take(written, from: type.qualifiedName)
                } else {
                    unresolved.append(tokens.map(\.text).joined())
                }
            }
            return (resolved, unresolved)
        }

        /// The plan's stages in order: calls written in `stages`, and constants it names (`static let v1ToV2 =
        /// MigrationStage.custom(…)`) read where they are declared.
        func stages(of plan: SwiftTypeIndex.Entry) -> ([SwiftStage], readable: Bool) {
            guard let (member, file) = staticMember("stages", of: plan), let range = tokens(of: member) else {
                return ([], true)
            }
            var found: [SwiftStage] = []
            var readable = true
            let slice = files[file].tokens[range]
            if let elements = Self.arrayElements(slice) {
                for element in elements {
                    let tokens = files[file].tokens[element]
                    if let call = tokens.indices.lazy.compactMap({
                        self.stageCall(in: tokens, at: $0, file: file, scope: plan.qualifiedName)
                    }).first {
                        found.append(call.0)
                    } else if tokens.count == 1, tokens.first!.kind == .identifier,
                        let (stage, _) = namedStage(tokens.first!.text, plan: plan)
                    {
                        found.append(stage)
                    } else if let (type, memberRange, memberFile) = memberReference(tokens, scope: plan.qualifiedName),
                        let call = memberRange.lazy.compactMap({
                            self.stageCall(
                                in: self.files[memberFile].tokens[memberRange], at: $0, file: memberFile,
                                scope: type.qualifiedName)
                        }).first
                    {
                        // `MigrateToV2.stage`: a static member holding the stage.
                        found.append(call.0)
                    } else {
                        readable = false
                    }
                }
                // A stage whose schemas could not be read says nothing certain about the pairs it covers.
                if found.contains(where: { $0.from == nil || $0.to == nil }) { readable = false }
                return (found, readable)
            }
            var k = slice.startIndex
            var depth = 0
            while k < slice.endIndex {
                step()
                let t = slice[k]
                if t.isPunctuation("(") || t.isPunctuation("[") || t.isPunctuation("{") {
                    depth += 1
                } else if t.isPunctuation(")") || t.isPunctuation("]") || t.isPunctuation("}") {
                    depth -= 1
                }
                if let (stage, end) = stageCall(in: slice, at: k, file: file, scope: plan.qualifiedName) {
                    found.append(stage)
                    k = end
                    continue
                }
                // A constant named in the list.
                if t.kind == .identifier, depth == 1, !(k > slice.startIndex && slice[k - 1].isPunctuation(".")),
                    k + 1 < slice.endIndex, slice[k + 1].isPunctuation(",") || slice[k + 1].isPunctuation("]")
                {
                    if let (stage, _) = namedStage(t.text, plan: plan) {
                        found.append(stage)
                    } else {
                        readable = false
                    }
                }
                k += 1
            }
            if found.contains(where: { $0.from == nil || $0.to == nil }) { readable = false }
            return (found, readable)
        }

        /// A constant holding a stage: a static member of the plan, else of any type, else at file scope.
        func namedStage(_ name: String, plan: SwiftTypeIndex.Entry) -> (SwiftStage, Int)? {
            var candidates: [(SwiftDeclaration, Int, String)] = []
            if let (d, f) = staticMember(name, of: plan) { candidates.append((d, f, plan.qualifiedName)) }
            if candidates.isEmpty { candidates = constants()[name] ?? [] }
            guard candidates.count == 1, let (declaration, file, scope) = candidates.first,
                let range = tokens(of: declaration)
            else { return nil }
            let slice = files[file].tokens[range]
            var k = slice.startIndex
            while k < slice.endIndex {
                step()
                if let found = stageCall(in: slice, at: k, file: file, scope: scope) { return found }
                k += 1
            }
            return nil
        }

        /// Constants a stage may be named by, at file scope then in each type (the first of a type's members of a
        /// name, as `staticMember` finds it).
        func constants() -> [String: [(SwiftDeclaration, Int, String)]] {
            if let built = progress.constants { return built }
            var built: [String: [(SwiftDeclaration, Int, String)]] = [:]
            for (f, file) in files.enumerated() {
                for d in file.declarations where d.kind == .let || d.kind == .var {
                    step()
                    built[d.name, default: []].append((d, f, ""))
                }
            }
            for qualified in index.order {
                guard let entry = index.entry(qualified), entry.declaration.isType else { continue }
                var named = Set<String>()
                for (d, f) in entry.members where (d.kind == .let || d.kind == .var) && named.insert(d.name).inserted {
                    step()
                    built[d.name, default: []].append((d, f, qualified))
                }
            }
            progress.constants = built
            return built
        }

        /// `.lightweight(fromVersion: A.self, toVersion: B.self)` or `.custom(…)` at `k` (the `lightweight` or
        /// `custom` name): the stage and the index after its arguments.
        func stageCall(in slice: ArraySlice<SwiftToken>, at k: Int, file: Int, scope: String) -> (SwiftStage, Int)? {
            let t = slice[k]
            guard t.kind == .identifier, t.text == "lightweight" || t.text == "custom", k > slice.startIndex,
                slice[k - 1].isPunctuation("."), k + 1 < slice.endIndex, slice[k + 1].isPunctuation("(")
            else { return nil }
            var depth = 0
            var end = k + 1
            var from: String?
            var to: String?
            var closures: [String: Range<Int>] = [:]
            var closureFile: [String: Int] = [:]
            while end < slice.endIndex {
                let u = slice[end]
                if u.isPunctuation("(") || u.isPunctuation("[") || u.isPunctuation("{") { depth += 1 }
                if u.isPunctuation(")") || u.isPunctuation("]") || u.isPunctuation("}") {
                    depth -= 1
                    if depth == 0 {
                        end += 1
                        break
                    }
                }
                if depth == 1, u.kind == .identifier, u.text == "fromVersion" || u.text == "toVersion",
                    end + 1 < slice.endIndex, slice[end + 1].isPunctuation(":")
                {
                    // The argument's tokens: to the next comma or the call's close, at this depth.
                    var argumentEnd = end + 2
                    var inner = 0
                    while argumentEnd < slice.endIndex {
                        let a = slice[argumentEnd]
                        if a.isPunctuation("(") || a.isPunctuation("[") || a.isPunctuation("{") { inner += 1 }
                        if a.isPunctuation(")") || a.isPunctuation("]") || a.isPunctuation("}") {
                            if inner == 0 { break }
                            inner -= 1
                        }
                        if inner == 0, a.isPunctuation(",") { break }
                        argumentEnd += 1
                    }
                    let resolved = schemaArgument(slice[(end + 2)..<argumentEnd], file: file, scope: scope)
                    if u.text == "fromVersion" { from = resolved } else { to = resolved }
                }
                if depth == 1, u.kind == .identifier, u.text == "willMigrate" || u.text == "didMigrate",
                    end + 2 < slice.endIndex, slice[end + 1].isPunctuation(":")
                {
                    let value = slice[end + 2]
                    if value.isPunctuation("{") {
                        let close = files[file].parser.skipBalanced(end + 2)
                        closures[u.text] = (end + 3)..<max(end + 3, min(close - 1, slice.endIndex))
                        closureFile[u.text] = file
                    } else if value.kind == .identifier, let (body, f) = function(named: value.text, near: scope) {
                        closures[u.text] = body
                        closureFile[u.text] = f
                    }
                }
                end += 1
            }
            var stage = SwiftStage(
                kind: t.text == "custom" ? .custom : .lightweight, from: from, to: to,
                location: SwiftLocation(file: files[file].path, line: t.line, column: t.column))
            if let range = closures["willMigrate"], let f = closureFile["willMigrate"] {
                stage.willMigrateTypes = modelTypes(in: range, file: f, scope: scope)
            }
            if let range = closures["didMigrate"], let f = closureFile["didMigrate"] {
                stage.didMigrateTypes = modelTypes(in: range, file: f, scope: scope)
            }
            return (stage, end)
        }

        /// A stage's `fromVersion:`/`toVersion:` argument: `V1.self`, or a constant holding it (`toVersion`,
        /// `MigrateToV2.toVersion`), resolved to the schema's qualified name; nil when it cannot be read.
        func schemaArgument(_ tokens: ArraySlice<SwiftToken>, file: Int, scope: String) -> String? {
            if let written = Self.selfReferences(tokens, progress: progress).first?.name {
                return index.resolve(Self.withoutSelf(written), from: scope).map(\.qualifiedName) ?? written
            }
            var holder: (SwiftDeclaration, Int, String)?
            if tokens.count == 1, let name = tokens.first, name.kind == .identifier,
                let entry = index.entry(scope), let (member, memberFile) = staticMember(name.text, of: entry)
            {
                holder = (member, memberFile, scope)
            } else if let (type, range, memberFile) = memberReference(tokens, scope: scope) {
                let written = Self.selfReferences(files[memberFile].tokens[range], progress: progress).first?.name
                return written.flatMap { index.resolve(Self.withoutSelf($0), from: type.qualifiedName)?.qualifiedName }
            }
            guard let (member, memberFile, memberScope) = holder, let range = self.tokens(of: member),
                let written = Self.selfReferences(files[memberFile].tokens[range], progress: progress).first?.name
            else { return nil }
            return index.resolve(Self.withoutSelf(written), from: memberScope)?.qualifiedName
        }

        /// The body of a function a stage names (`willMigrate: migrateTrips`): a static member of the scope's type,
        /// else one function of that name at file scope in the module.
        func function(named name: String, near scope: String) -> (Range<Int>, Int)? {
            if let entry = index.entry(scope),
                let (member, file) = entry.members(named: name).first(where: { $0.declaration.kind == .func }),
                let body = member.body
            {
                return (body, file)
            }
            var found: [(Range<Int>, Int)] = []
            for (f, file) in files.enumerated() {
                for d in file.declarations where d.kind == .func && d.name == name {
                    if let body = d.body { found.append((body, f)) }
                }
            }
            return found.count == 1 ? found[0] : nil
        }

        /// The `@Model` types a body names (`FetchDescriptor<V1.Item>`, `V2.Item(…)`, `Item.self`), resolved from
        /// `scope`, each once, with its first mention.
        func modelTypes(in range: Range<Int>, file: Int, scope: String) -> [(type: String, at: SwiftLocation)] {
            let tokens = files[file].tokens
            var found: [(String, SwiftLocation)] = []
            var seen = Set<String>()
            var k = range.lowerBound
            while k < range.upperBound {
                let t = tokens[k]
                guard t.kind == .identifier, t.text.first?.isUppercase == true,
                    k == range.lowerBound || !tokens[k - 1].isPunctuation(".")
                else {
                    k += 1
                    continue
                }
                // The longest dotted chain from here that resolves to a @Model class.
                var name = t.text
                var j = k + 1
                var best: SwiftTypeIndex.Entry? = index.resolve(name, from: scope)
                while j + 1 < range.upperBound, tokens[j].isPunctuation("."), tokens[j + 1].kind == .identifier {
                    name += "." + tokens[j + 1].text
                    if let entry = index.resolve(name, from: scope) { best = entry }
                    j += 2
                }
                if let best, best.declaration.kind == .class, best.declaration.hasAttribute("Model"),
                    seen.insert(best.qualifiedName).inserted
                {
                    found.append(
                        (best.qualifiedName, SwiftLocation(file: files[file].path, line: t.line, column: t.column)))
                }
                k = j
            }
            return found
        }

        /// Containers and `Schema(versionedSchema:)` in every file but tests, outside `#if DEBUG` branches; never a
        /// preview's (a `#Preview` body, a `PreviewProvider`, a declaration named like `preview`) nor one stored in
        /// memory only (`ModelConfiguration(isStoredInMemoryOnly: true)`, inline or named in the file, or
        /// `.modelContainer(for:inMemory: true)`): those are not
        /// the app's container, and no store on a device was opened with them.
        func containers() -> [SwiftContainer] {
            var found: [SwiftContainer] = []
            for file in files where !Self.isTestPath(file.path) {
                let tokens = file.tokens
                let parser = file.parser
                /// `isStoredInMemoryOnly: true` among the tokens of a call's arguments.
                func inMemory(_ range: Range<Int>) -> Bool {
                    var k = range.lowerBound
                    while k + 2 < range.upperBound {
                        step()
                        if tokens[k].isIdentifier("isStoredInMemoryOnly") || tokens[k].isIdentifier("inMemory"),
                            tokens[k + 1].isPunctuation(":"), tokens[k + 2].isIdentifier("true")
                        {
                            return true
                        }
                        k += 1
                    }
                    return false
                }
                // `let config = ModelConfiguration(isStoredInMemoryOnly: true)`: a name a container may pass.
                // Past each such call once read: a call nested in its arguments is not read again (linear in the file).
                var inMemoryConfigurations = Set<String>()
                var at = 2
                while at + 4 < tokens.count {
                    step()
                    guard tokens[at].isIdentifier("ModelConfiguration"), tokens[at + 1].isPunctuation("("),
                        tokens[at - 1].isPunctuation("="), tokens[at - 2].kind == .identifier
                    else {
                        at += 1
                        continue
                    }
                    let end = parser.skipBalanced(at + 1)
                    if inMemory((at + 2)..<max(at + 2, end - 1)) { inMemoryConfigurations.insert(tokens[at - 2].text) }
                    at = max(end, at + 1)
                }
                /// From the token after a preview's name or keyword: past its body (a call's arguments and trailing
                /// closure, a braced body, or an initializer up to its line's end).
                func skipPreview(from start: Int, function: Bool = false) -> Int {
                    var k = start
                    while k < tokens.count, k - start < 64 {
                        let t = tokens[k]
                        if t.isPunctuation("(") {
                            k = parser.skipBalanced(k)
                            // A function's body follows its parameters and result type.
                            if function {
                                while k < tokens.count, k - start < 64, !tokens[k].isPunctuation("{") { k += 1 }
                            }
                            if k < tokens.count, tokens[k].isPunctuation("{") { k = parser.skipBalanced(k) }
                            return k
                        }
                        if t.isPunctuation("{") { return parser.skipBalanced(k) }
                        if k > start, t.startsLine, !t.isPunctuation("."), !t.isPunctuation("=") { return k }
                        k += 1
                    }
                    return k
                }
                // Per open `#if`: whether the branch being read is DEBUG-only; and how many are.
                var debugBranches: [(debug: Bool, negated: Bool)] = []
                var debugCount = 0
                func setLast(_ branch: (debug: Bool, negated: Bool)) {
                    debugCount += (branch.debug ? 1 : 0) - (debugBranches[debugBranches.count - 1].debug ? 1 : 0)
                    debugBranches[debugBranches.count - 1] = branch
                }
                var k = 0
                while k < tokens.count {
                    step()
                    let t = tokens[k]
                    if t.kind == .pound {
                        switch t.text {
                        case "if":
                            let negated = k + 1 < tokens.count && tokens[k + 1].isPunctuation("!")
                            let word = k + (negated ? 2 : 1)
                            let names = word < tokens.count && tokens[word].isIdentifier("DEBUG")
                            debugBranches.append((names && !negated, names && negated))
                            if names && !negated { debugCount += 1 }
                        case "elseif":
                            if !debugBranches.isEmpty { setLast((false, false)) }
                        case "else":
                            if let last = debugBranches.last { setLast((last.negated, last.debug)) }
                        case "endif":
                            if let last = debugBranches.popLast(), last.debug { debugCount -= 1 }
                        default: break
                        }
                    }
                    if t.kind == .pound, t.text == "Preview" {
                        k = skipPreview(from: k + 1)
                        continue
                    }
                    if t.isIdentifier("PreviewProvider") || t.isIdentifier("PreviewModifier") {
                        k = skipPreview(from: k + 1)
                        continue
                    }
                    if t.isIdentifier("var") || t.isIdentifier("let") || t.isIdentifier("func"), k + 1 < tokens.count,
                        tokens[k + 1].kind == .identifier, tokens[k + 1].text.lowercased().contains("preview")
                    {
                        k = skipPreview(from: k + 2, function: t.isIdentifier("func"))
                        continue
                    }
                    let inDebug = debugCount > 0
                    let opens = k + 1 < tokens.count && tokens[k + 1].isPunctuation("(")
                    let isContainer =
                        opens
                        && (t.isIdentifier("ModelContainer")
                            || (t.isIdentifier("modelContainer") && k > 0 && tokens[k - 1].isPunctuation(".")))
                    let isSchema =
                        opens && t.isIdentifier("Schema") && k + 2 < tokens.count
                        && tokens[k + 2].isIdentifier("versionedSchema")
                    if isContainer || isSchema, !inDebug {
                        let end = parser.groupEnd(k + 1)
                        let arguments = tokens[(k + 2)..<max(k + 2, end - 1)]
                        if isContainer,
                            inMemory(arguments.indices)
                                || arguments.contains(where: {
                                    $0.kind == .identifier && inMemoryConfigurations.contains($0.text)
                                })
                        {
                            k = end
                            continue
                        }
                        var container = SwiftContainer(
                            location: SwiftLocation(file: file.path, line: t.line, column: t.column), plan: nil,
                            schema: nil, models: [], isSchemaOnly: isSchema)
                        for (written, _) in Self.selfReferences(arguments, progress: progress) {
                            guard let target = index.resolve(written, from: "") else { continue }
                            if target.conforms(to: "SchemaMigrationPlan") {
                                container.plan = target.qualifiedName
                            } else if target.conforms(to: "VersionedSchema") {
                                container.schema = target.qualifiedName
                            } else if isModelClass(target) {
                                container.models.append(target.qualifiedName)
                            }
                        }
                        found.append(container)
                        // A `Schema(versionedSchema:)` inside a container call is that container's.
                        k = end
                        continue
                    }
                    k += 1
                }
            }
            return found
        }

        /// Where the app's code fetches, queries or inserts a `@Model` type: `FetchDescriptor<X>`, `@Query … var x:
        /// [X]`, `.insert(X(…))`; names resolved at file scope.
        func usedModelTypes() -> [(type: String, at: SwiftLocation)] {
            var found: [(String, SwiftLocation)] = []
            for file in files where !Self.isTestPath(file.path) {
                let tokens = file.tokens
                func chain(from start: Int) -> (String, Int) {
                    var name = tokens[start].text
                    var k = start + 1
                    while k + 1 < tokens.count, tokens[k].isPunctuation("."), tokens[k + 1].kind == .identifier {
                        name += "." + tokens[k + 1].text
                        k += 2
                    }
                    return (name, k)
                }
                func record(_ start: Int) {
                    guard start < tokens.count, tokens[start].kind == .identifier else { return }
                    let (name, _) = chain(from: start)
                    guard let entry = index.resolve(Self.withoutSelf(name), from: ""), isModelClass(entry) else {
                        return
                    }
                    let t = tokens[start]
                    found.append((entry.qualifiedName, SwiftLocation(file: file.path, line: t.line, column: t.column)))
                }
                var k = 0
                while k < tokens.count {
                    let t = tokens[k]
                    if t.isIdentifier("FetchDescriptor"), k + 2 < tokens.count, tokens[k + 1].isPunctuation("<") {
                        record(k + 2)
                    } else if t.kind == .attribute, t.text == "Query" {
                        // The property the attribute is on: `var name: [X]` within the next few tokens.
                        var j = k + 1
                        while j < min(tokens.count, k + 40), !tokens[j].isIdentifier("var") { j += 1 }
                        if j + 4 < tokens.count, tokens[j + 2].isPunctuation(":"), tokens[j + 3].isPunctuation("[") {
                            record(j + 4)
                        }
                    } else if t.isIdentifier("insert"), k > 0, tokens[k - 1].isPunctuation("."), k + 2 < tokens.count,
                        tokens[k + 1].isPunctuation("("), tokens[k + 2].kind == .identifier
                    {
                        let (_, after) = chain(from: k + 2)
                        if after < tokens.count, tokens[after].isPunctuation("(") { record(k + 2) }
                    }
                    k += 1
                }
            }
            return found
        }

        /// Files of a test target: under a folder named `Tests`, `…Tests` or `…UITests`.
        static func isTestPath(_ path: String) -> Bool {
            path.split(separator: "/").dropLast().contains { $0 == "Tests" || $0.hasSuffix("Tests") }
        }

        mutating func sets(moduleName: String) -> [SwiftSchemaSet] {
            var sets: [SwiftSchemaSet] = []
            let containers = containers()
            var listedSomewhere = Set<String>()
            var built: [String: SwiftSchema] = [:]
            func schemaNamed(_ qualified: String) -> SwiftSchema? {
                if let known = built[qualified] { return known }
                let made = schema(qualified)
                built[qualified] = made
                return made
            }
            let allSchemas = schemaTypes
            for planName in planTypes {
                guard let plan = index.entry(planName) else { continue }
                let (listed, unresolved) = plannedSchemas(plan)
                listedSomewhere.formUnion(listed)
                let (stages, readable) = stages(of: plan)
                let schemas = listed.compactMap { schemaNamed($0) }
                sets.append(
                    SwiftSchemaSet(
                        name: plan.name, path: files[plan.file].path, location: location(plan), plan: planName,
                        schemas: schemas, stages: stages, stagesReadable: readable, unresolvedSchemas: unresolved,
                        unlisted: [],
                        containers: containers.filter { $0.plan == planName }, isUnversioned: false))
            }
            let unlisted = allSchemas.filter { !listedSomewhere.contains($0) }.compactMap { schemaNamed($0) }
            if sets.count == 1 {
                sets[0].unlisted = unlisted
                sets[0].containers = containers.filter {
                    $0.plan == sets[0].plan || ($0.plan == nil && ($0.schema != nil || !$0.models.isEmpty))
                }
            } else if !unlisted.isEmpty, sets.isEmpty {
                let ordered = unlisted.enumerated().sorted { a, b in
                    a.element.versionTuple.lexicographicallyPrecedes(b.element.versionTuple)
                        || (a.element.versionTuple == b.element.versionTuple && a.offset < b.offset)
                }.map(\.element)
                let first = ordered[0].location
                sets.append(
                    SwiftSchemaSet(
                        name: moduleName, path: first.file, location: first, plan: nil, schemas: ordered, stages: [],
                        stagesReadable: true, unresolvedSchemas: [], unlisted: [], containers: containers,
                        isUnversioned: false))
            }
            if sets.count == 1 { sets[0].usedModelTypes = usedModelTypes() }
            if allSchemas.isEmpty && sets.isEmpty {
                // No VersionedSchema: the app's @Model classes are its one version.
                let models = index.order.filter { index.entry($0).map(isModelClass) ?? false }
                if let first = models.first.flatMap({ index.entry($0) }) {
                    let at = location(first)
                    let current = build(
                        name: "current", qualified: "", location: at, version: nil, listed: models, unresolved: [])
                    sets.append(
                        SwiftSchemaSet(
                            name: moduleName, path: at.file, location: at, plan: nil, schemas: [current], stages: [],
                            stagesReadable: true, unresolvedSchemas: [], unlisted: [], containers: containers,
                            isUnversioned: true))
                }
            }
            let names = storeNames()
            for i in sets.indices { sets[i].storeNames = names }
            return sets
        }

        /// Store names written as literals in `ModelConfiguration(…)`: its first unlabelled string, or a string
        /// ending in `.sqlite` or `.store` among its arguments (the file's name without extension).
        func storeNames() -> [String] {
            var names: [String] = []
            for file in files where !Self.isTestPath(file.path) {
                let tokens = file.tokens
                var k = 0
                while k + 1 < tokens.count {
                    step()
                    guard tokens[k].isIdentifier("ModelConfiguration"), tokens[k + 1].isPunctuation("(") else {
                        k += 1
                        continue
                    }
                    let end = file.parser.skipBalanced(k + 1)
                    for j in (k + 2)..<max(k + 2, end - 1) where tokens[j].kind == .string {
                        let text = tokens[j].text
                        let first = j == k + 2
                        let file = text.split(separator: "/").last.map(String.init) ?? text
                        if file.hasSuffix(".sqlite") || file.hasSuffix(".store") {
                            names.append(String(file[..<file.lastIndex(of: ".")!]))
                        } else if first, !text.isEmpty, !text.contains("/") {
                            names.append(text)
                        }
                    }
                    k = end
                }
            }
            var seen = Set<String>()
            return names.filter { seen.insert($0).inserted }
        }
    }
}
