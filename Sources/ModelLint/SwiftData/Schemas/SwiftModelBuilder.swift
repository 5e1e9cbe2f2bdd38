import ModelLintModel

/// Builds Core Data's entities from `@Model` classes (docs/swiftdata.md "How Swift maps to Core Data"): stored properties become attributes
/// or relationships, `@Attribute`/`@Relationship` options their flags, `#Unique` its constraints. A property whose
/// type cannot be resolved, or whose mapping is unverified, makes its entity unknown: built as far as it is known,
/// but never claimed as a hash.
struct SwiftModelBuilder {
    let index: SwiftTypeIndex

    init(index: SwiftTypeIndex) { self.index = index }

    /// What a property's type means to Core Data.
    enum Shape {
        case attribute(AttributeType)
        case toOne(String)
        case toMany(String)
        /// Stored in a form this scanner does not claim to know (a Codable struct, an enum, an array of values).
        case unverified(String)
        case unknown(String)
    }

    static let primitives: [String: AttributeType] = [
        "String": .string, "Bool": .boolean, "Int": .integer64, "Int16": .integer16, "Int32": .integer32,
        "Int64": .integer64, "Double": .double, "Float": .float, "Decimal": .decimal, "Date": .date,
        "Data": .binary, "UUID": .uuid, "URL": .uri,
        // Type aliases of Double, stored as Double (TimeInterval read off stores SwiftData wrote).
        "TimeInterval": .double, "CGFloat": .double,
    ]

    func isModelClass(_ entry: SwiftTypeIndex.Entry) -> Bool {
        entry.declaration.kind == .class && entry.declaration.hasAttribute("Model")
    }

    func file(_ entry: SwiftTypeIndex.Entry) -> SwiftSourceFile { index.files[entry.file] }

    /// The members of a `@Model` class that Core Data stores.
    func storedProperties(of entry: SwiftTypeIndex.Entry) -> [SwiftDeclaration] {
        let tokens = file(entry).tokens
        return entry.declaration.members.filter { member in
            guard member.kind == .var || member.kind == .let, !member.isStatic, !member.hasAttribute("Transient"),
                member.type != nil || member.initializer != nil
            else { return false }
            if let body = member.body {
                // Observers keep a property stored; any other accessor makes it computed.
                guard let first = body.first, first < tokens.count else { return false }
                return tokens[first].isIdentifier("willSet") || tokens[first].isIdentifier("didSet")
            }
            return true
        }
    }

    /// A type written in tokens (`[Tag]?`, `Optional<Item>`, `Foundation.Date`), resolved from `scope`.
    func shape(of range: Range<Int>, in tokens: [SwiftToken], scope: String) -> (Shape, optional: Bool) {
        var slice = tokens[range]
        var optional = false
        if let last = slice.last, last.isPunctuation("?") || last.isPunctuation("!") {
            optional = true
            slice = slice.dropLast()
        }
        let words = slice.map(\.text)
        if words.first == "Optional", words.count > 3, words[1] == "<", words.last == ">" {
            let inner = (slice.startIndex + 2)..<(slice.endIndex - 1)
            let (shape, _) = self.shape(of: inner, in: tokens, scope: scope)
            return (shape, true)
        }
        var element: Range<Int>?
        if words.first == "[", words.last == "]", slice.count > 2 {
            if slice.dropFirst().dropLast().contains(where: { $0.isPunctuation(":") }) {
                return (.unverified("a dictionary"), optional)
            }
            element = (slice.startIndex + 1)..<(slice.endIndex - 1)
        } else if words.first == "Array" || words.first == "Set", words.count > 3, words[1] == "<", words.last == ">" {
            element = (slice.startIndex + 2)..<(slice.endIndex - 1)
        }
        if let element {
            let (inner, _) = shape(of: element, in: tokens, scope: scope)
            if case .toOne(let target) = inner { return (.toMany(target), optional) }
            return (.unverified("a collection of values"), optional)
        }
        let name = slice.map(\.text).joined()
        guard slice.allSatisfy({ $0.kind == .identifier || $0.isPunctuation(".") }), !name.isEmpty else {
            return (.unknown("its type \(name) is not one the scanner reads"), optional)
        }
        if let entry = index.resolve(name, from: scope) {
            if isModelClass(entry) { return (.toOne(entry.qualifiedName), optional) }
            return (.unverified("its type \(name) is \(entry.declaration.kind.rawValue) declared in the app"), optional)
        }
        let last = name.split(separator: ".").last.map(String.init) ?? name
        if let type = Self.primitives[last] { return (.attribute(type), optional) }
        return (.unknown("its type \(name) is not declared in these files"), optional)
    }

    /// The type an initializer implies when there is no annotation (`= 0`, `= ""`, `= UUID()`).
    func inferred(from range: Range<Int>, in tokens: [SwiftToken]) -> AttributeType? {
        let slice = tokens[range]
        guard let first = slice.first else { return nil }
        if slice.count == 1 || (slice.count == 2 && first.isPunctuation("-")) {
            let value = slice.last!
            switch value.kind {
            case .number: return value.text.contains(".") || value.text.contains("e") ? .double : .integer64
            case .string, .otherString: return .string
            case .identifier where value.text == "true" || value.text == "false": return .boolean
            default: return nil
            }
        }
        let words = slice.map(\.text)
        if words == ["UUID", "(", ")"] { return .uuid }
        if words == ["Date", "(", ")"] || words == ["Date", ".", "now"] { return .date }
        if words == ["Data", "(", ")"] { return .binary }
        return nil
    }

    /// The type an initializer states by calling its initializer with no arguments, when there is no annotation:
    /// `[Item]()`, `Array<Item>()`, `Set<Item>()`, `[String: Int]()` (the tokens of the type, without `()`).
    func statedType(in range: Range<Int>, _ tokens: [SwiftToken]) -> Range<Int>? {
        let slice = tokens[range]
        guard slice.count >= 5, tokens[range.upperBound - 1].isPunctuation(")"),
            tokens[range.upperBound - 2].isPunctuation("(")
        else { return nil }
        let type = range.lowerBound..<(range.upperBound - 2)
        let first = tokens[type.lowerBound]
        let last = tokens[type.upperBound - 1]
        if first.isPunctuation("["), last.isPunctuation("]") { return type }
        if first.isIdentifier("Array") || first.isIdentifier("Set"), type.count > 3,
            tokens[type.lowerBound + 1].isPunctuation("<"), last.isPunctuation(">")
        {
            return type
        }
        return nil
    }

    /// A literal initializer as the model's default value (`0`, `-1.5`, `"x"`, `true` as `YES`).
    func defaultValue(_ range: Range<Int>, in tokens: [SwiftToken]) -> String? {
        let slice = tokens[range]
        if slice.count == 2, slice.first!.isPunctuation("-"), slice.last!.kind == .number {
            return "-" + slice.last!.text
        }
        guard slice.count == 1, let value = slice.first else { return nil }
        switch value.kind {
        case .number: return value.text.filter { $0 != "_" }
        case .string: return value.text
        case .identifier where value.text == "true": return "YES"
        case .identifier where value.text == "false": return "NO"
        default: return nil
        }
    }

    /// The `@Model` types a class's relationships and superclass name.
    func relationshipTargets(of qualified: String) -> [String] {
        guard let entry = index.entry(qualified) else { return [] }
        var targets: [String] = []
        if let base = entry.declaration.inherited.first, let parent = index.resolve(base, from: entry.scope),
            isModelClass(parent)
        {
            targets.append(parent.qualifiedName)
        }
        let tokens = file(entry).tokens
        for property in storedProperties(of: entry) {
            guard let type = property.type ?? property.initializer.flatMap({ statedType(in: $0, tokens) }) else {
                continue
            }
            switch shape(of: type, in: tokens, scope: qualified).0 {
            case .toOne(let target), .toMany(let target): targets.append(target)
            default: break
            }
        }
        return targets
    }

    /// Options and labelled values in an attribute's arguments: `.unique`, `.transformable(by: T.self)`,
    /// `originalName: "old"`, `deleteRule: .cascade`, `inverse: \Other.items`.
    struct Arguments {
        var options: Set<String> = []
        var labelled: [String: [SwiftToken]] = [:]
    }

    func arguments(_ attribute: SwiftAttribute?, in tokens: [SwiftToken]) -> Arguments {
        var found = Arguments()
        guard let range = attribute?.arguments else { return found }
        var depth = 0
        var k = range.lowerBound
        var label: String?
        while k < range.upperBound {
            let t = tokens[k]
            if t.isPunctuation("(") || t.isPunctuation("[") { depth += 1 }
            if t.isPunctuation(")") || t.isPunctuation("]") { depth -= 1 }
            if depth == 0, t.kind == .identifier, k + 1 < range.upperBound, tokens[k + 1].isPunctuation(":") {
                label = t.text
                found.labelled[t.text] = []
                k += 2
                continue
            }
            if depth == 0, t.isPunctuation(",") {
                label = nil
            } else if let label {
                found.labelled[label, default: []].append(t)
            } else if depth == 0, t.isPunctuation("."), k + 1 < range.upperBound, tokens[k + 1].kind == .identifier {
                found.options.insert(tokens[k + 1].text)
            }
            k += 1
        }
        return found
    }

    static func string(_ tokens: [SwiftToken]?) -> String? {
        guard let tokens, tokens.count == 1, tokens[0].kind == .string else { return nil }
        return tokens[0].text
    }

    static func integer(_ tokens: [SwiftToken]?) -> Int? {
        guard let tokens, tokens.count == 1, tokens[0].kind == .number else { return nil }
        return Int(tokens[0].text)
    }

    /// The model of a schema's types; the entities that are unknown, and relationships into other schemas.
    func model(
        of types: [String], schema: String, enclosingSchema: (String) -> String?, at location: SwiftLocation
    ) -> (
        Model, [String: String], [(entity: String, property: String, destination: String, at: SwiftLocation)]
    ) {
        var entities: [Entity] = []
        var unknown: [String: String] = [:]
        var cross: [(String, String, String, SwiftLocation)] = []
        // Per entity: relationships with the inverse written (entity, property) -> (destination, inverse name).
        var explicitInverses: [(owner: String, name: String, destination: String, inverse: String)] = []
        for qualified in types {
            guard let entry = index.entry(qualified) else { continue }
            let source = file(entry)
            let tokens = source.tokens
            let at = SourceLocation(file: source.path, line: entry.declaration.line, column: entry.declaration.column)
            var fields = Entity.Fields(name: entry.name)
            fields.representedClassName = entry.name
            if let base = entry.declaration.inherited.first, let parent = index.resolve(base, from: entry.scope),
                isModelClass(parent)
            {
                fields.parentEntity = parent.name
                // Model inheritance (iOS 26) has not been compared with a store SwiftData wrote: no hash is claimed.
                unknown[entry.name] = "its superclass \(parent.name) makes it a subentity, which is unverified"
            }
            // A class inside `#if` with no other declaration of its name (the index resolves no name declared
            // twice) is the only shape there is where SwiftData runs (`#if canImport(SwiftData)`): it is known.
            var properties: [Property] = []
            for property in storedProperties(of: entry) {
                let where_ = SourceLocation(file: at.sourceFile, line: property.line, column: property.column)
                if property.conditions.count > entry.declaration.conditions.count {
                    unknown[entry.name] = "\(property.name) is declared inside #if"
                }
                let attributeOptions = arguments(property.attribute("Attribute"), in: tokens)
                let relationshipOptions = arguments(property.attribute("Relationship"), in: tokens)
                var shape: Shape
                var optional = false
                if let type = property.type {
                    (shape, optional) = self.shape(of: type, in: tokens, scope: qualified)
                } else if let initializer = property.initializer, let stated = statedType(in: initializer, tokens) {
                    (shape, optional) = self.shape(of: stated, in: tokens, scope: qualified)
                } else if let initializer = property.initializer, let type = inferred(from: initializer, in: tokens) {
                    shape = .attribute(type)
                } else {
                    shape = .unknown("its type cannot be read from its initializer")
                }
                if attributeOptions.options.contains("transformable") { shape = .attribute(.transformable) }
                switch shape {
                case .toOne(let target), .toMany(let target):
                    guard let destination = index.entry(target) else { continue }
                    var r = Relationship.Fields(name: property.name)
                    r.destinationEntity = destination.name
                    if case .toMany = shape {
                        r.isToMany = true
                        r.isOptional = optional
                        r.minCount = 0
                        r.maxCount = 0
                    } else {
                        r.isOptional = optional
                        r.maxCount = 1
                        r.minCount = optional ? nil : 1
                    }
                    if let min = Self.integer(relationshipOptions.labelled["minimumModelCount"]) { r.minCount = min }
                    if let max = Self.integer(relationshipOptions.labelled["maximumModelCount"]) { r.maxCount = max }
                    if let rule = relationshipOptions.labelled["deleteRule"]?.last?.text {
                        r.deleteRule =
                            switch rule {
                            case "cascade": .cascade
                            case "deny": .deny
                            case "noAction": .noAction
                            default: .nullify
                            }
                    }
                    r.elementID = Self.string(relationshipOptions.labelled["originalName"])
                    r.versionHashModifier = Self.string(relationshipOptions.labelled["hashModifier"])
                    if let inverse = relationshipOptions.labelled["inverse"]?.last, inverse.kind == .identifier {
                        explicitInverses.append((entry.name, property.name, destination.name, inverse.text))
                    }
                    if let other = enclosingSchema(target), other != schema {
                        cross.append(
                            (
                                entry.name, property.name, target,
                                SwiftLocation(file: source.path, line: property.line, column: property.column)
                            ))
                    }
                    properties.append(.relationship(Relationship(location: where_, fields: r)))
                case .attribute(let type):
                    properties.append(
                        .attribute(
                            attribute(
                                property, type: type, optional: optional, options: attributeOptions, tokens: tokens,
                                at: where_)))
                case .unverified(let why), .unknown(let why):
                    if unknown[entry.name] == nil { unknown[entry.name] = "\(property.name): \(why)" }
                    properties.append(
                        .attribute(
                            attribute(
                                property, type: .transformable, optional: optional, options: attributeOptions,
                                tokens: tokens, at: where_)))
                }
                if attributeOptions.options.contains("unique") {
                    fields.uniquenessConstraints.append(
                        UniquenessConstraint(properties: [property.name], location: where_))
                }
            }
            for macro in entry.declaration.members where macro.kind == .macro && macro.name == "Unique" {
                guard let range = macro.initializer else { continue }
                fields.uniquenessConstraints += Self.keyPathGroups(range, in: tokens).map {
                    UniquenessConstraint(
                        properties: $0,
                        location: SourceLocation(file: at.sourceFile, line: macro.line, column: macro.column))
                }
            }
            entities.append(Entity(location: at, properties: properties, fields: fields))
        }
        applyInverses(&entities, explicit: explicitInverses)
        let model = Model(
            location: SourceLocation(file: location.file, line: location.line, column: location.column),
            entities: entities)
        return (model, unknown, cross)
    }

    func attribute(
        _ property: SwiftDeclaration, type: AttributeType, optional: Bool, options: Arguments, tokens: [SwiftToken],
        at location: SourceLocation
    ) -> Attribute {
        var a = Attribute.Fields(name: property.name, type: type)
        a.isOptional = optional
        a.isTransient = options.options.contains("ephemeral")
        a.allowsExternalBinaryDataStorage = options.options.contains("externalStorage")
        a.preserveAfterDeletion = options.options.contains("preserveValueOnDeletion")
        a.allowsCloudEncryption = options.options.contains("allowsCloudEncryption")
        a.spotlightIndexingEnabled = options.options.contains("spotlight")
        a.elementID = Self.string(options.labelled["originalName"])
        a.versionHashModifier = Self.string(options.labelled["hashModifier"])
        if type == .transformable, let by = options.labelled["by"] {
            a.valueTransformerName = SwiftDataReader.Reading.selfReferences(by[...]).first?.name
        }
        if let initializer = property.initializer {
            // Any initializer is a default to SwiftData (`Data()`, `[]`, `.distantPast`, a call): a literal is
            // recorded as its value, anything else as evaluated.
            a.defaultValueString = defaultValue(initializer, in: tokens)
            if a.defaultValueString == nil {
                a.defaultExpression = tokens[initializer].map(\.text).joined(separator: " ")
            }
        }
        return Attribute(location: location, fields: a)
    }

    /// `#Unique<T>([\.a], [\.b, \.c])`: each bracketed list of key paths.
    static func keyPathGroups(_ range: Range<Int>, in tokens: [SwiftToken]) -> [[String]] {
        var groups: [[String]] = []
        var current: [String]?
        var k = range.lowerBound
        while k < range.upperBound {
            let t = tokens[k]
            if t.isPunctuation("[") {
                current = []
            } else if t.isPunctuation("]") {
                if let c = current, !c.isEmpty { groups.append(c) }
                current = nil
            } else if t.isPunctuation("\\"), k + 2 < range.upperBound, tokens[k + 1].isPunctuation("."),
                tokens[k + 2].kind == .identifier
            {
                current?.append(tokens[k + 2].text)
                k += 3
                continue
            }
            k += 1
        }
        return groups
    }

    /// SwiftData sets a written inverse on both ends; with none written, two relationships are each other's
    /// inverse only when each is the one candidate between the two entities.
    func applyInverses(
        _ entities: inout [Entity], explicit: [(owner: String, name: String, destination: String, inverse: String)]
    ) {
        var inverse: [String: (String, String)] = [:]  // "Entity.property" -> (entity, property)
        for e in explicit {
            inverse["\(e.owner).\(e.name)"] = (e.destination, e.inverse)
            inverse["\(e.destination).\(e.inverse)"] = (e.owner, e.name)
        }
        // Candidates per ordered pair of entities, among relationships with no written inverse.
        var candidates: [String: [String]] = [:]
        for entity in entities {
            for r in entity.relationships where inverse["\(entity.name).\(r.name)"] == nil {
                candidates["\(entity.name)>\(r.destinationEntity ?? "")", default: []].append(r.name)
            }
        }
        for entity in entities {
            for r in entity.relationships where inverse["\(entity.name).\(r.name)"] == nil {
                let destination = r.destinationEntity ?? ""
                guard destination != entity.name,
                    let mine = candidates["\(entity.name)>\(destination)"], mine.count == 1,
                    let theirs = candidates["\(destination)>\(entity.name)"], theirs.count == 1
                else { continue }
                inverse["\(entity.name).\(r.name)"] = (destination, theirs[0])
            }
        }
        for i in entities.indices {
            for p in entities[i].properties.indices {
                guard case .relationship(var r) = entities[i].properties[p],
                    let (entity, name) = inverse["\(entities[i].name).\(r.name)"]
                else { continue }
                r.inverseName = name
                r.inverseEntity = entity
                entities[i].properties[p] = .relationship(r)
            }
        }
    }
}
