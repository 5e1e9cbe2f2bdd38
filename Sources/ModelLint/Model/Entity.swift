/// One `key`/`value` pair of an element's User Info.
public struct UserInfoEntry: Hashable, Sendable {
    public var key: String
    public var value: String
}

public struct Attribute: Hashable, Sendable {
    public var name: String
    public var location: SourceLocation
    public var type: AttributeType
    /// `optional="YES"`; a missing `optional` means non-optional.
    public var isOptional: Bool = false
    public var isTransient: Bool = false
    public var defaultValueString: String?
    public var defaultDateTimeInterval: String?
    public var minValueString: String?
    public var maxValueString: String?
    public var regularExpressionString: String?
    public var usesScalarValueType: Bool?
    public var valueTransformerName: String?
    public var customClassName: String?
    public var allowsExternalBinaryDataStorage: Bool = false
    public var preserveAfterDeletion: Bool = false
    public var allowsCloudEncryption: Bool = false
    public var spotlightIndexingEnabled: Bool = false
    public var isIndexed: Bool = false
    public var isDerived: Bool = false
    public var derivationExpression: String?
    /// The Renaming ID field as Xcode writes it.
    public var elementID: String?
    /// A literal `renamingIdentifier="..."` XML attribute: not Xcode's format, ignored by the model compiler.
    public var renamingIdentifierAttribute: String?
    public var versionHashModifier: String?
    /// The model-level composite this attribute instantiates (`attributeType="Composite"`).
    public var compositeName: String?
    public var userInfo: [UserInfoEntry] = []

    public init(name: String, location: SourceLocation, type: AttributeType) {
        self.name = name
        self.location = location
        self.type = type
    }

    /// What inferred migration matches on: `elementID`, else the name.
    public var renamingIdentifier: String { elementID ?? name }

    /// `defaultValueString` present (an empty string is a default), or `defaultDateTimeInterval` on a Date.
    public var hasDefault: Bool {
        defaultValueString != nil || (type == .date && defaultDateTimeInterval != nil)
    }
}

public struct Relationship: Hashable, Sendable {
    public var name: String
    public var location: SourceLocation
    public var isOptional: Bool = false
    public var isTransient: Bool = false
    public var isToMany: Bool = false
    public var isOrdered: Bool = false
    public var minCount: Int?
    public var maxCount: Int?
    public var deleteRule: DeleteRule = .nullify
    public var destinationEntity: String?
    public var inverseName: String?
    public var inverseEntity: String?
    public var elementID: String?
    public var renamingIdentifierAttribute: String?
    public var versionHashModifier: String?
    public var userInfo: [UserInfoEntry] = []

    public init(name: String, location: SourceLocation) {
        self.name = name
        self.location = location
    }

    public var renamingIdentifier: String { elementID ?? name }
}

/// A property whose value comes from a fetch request, never stored.
public struct FetchedProperty: Hashable, Sendable {
    public var name: String
    public var location: SourceLocation
    public var isOptional: Bool = false
    public var fetchRequest: FetchRequest?
    public var userInfo: [UserInfoEntry] = []
}

/// A fetch request template (`<fetchRequest>` at model level or inside a fetched property).
public struct FetchRequest: Hashable, Sendable {
    public var name: String
    public var entity: String?
    public var predicate: String?
    public var location: SourceLocation
}

/// An attribute or relationship: the two kinds of property that take part in migration.
/// Indirect: copies share one boxed payload, which matters when every diff moves thousands of them.
public indirect enum Property: Hashable, Sendable {
    case attribute(Attribute)
    case relationship(Relationship)

    public var name: String {
        switch self {
        case .attribute(let a): return a.name
        case .relationship(let r): return r.name
        }
    }

    public var location: SourceLocation {
        switch self {
        case .attribute(let a): return a.location
        case .relationship(let r): return r.location
        }
    }

    public var renamingIdentifier: String {
        switch self {
        case .attribute(let a): return a.renamingIdentifier
        case .relationship(let r): return r.renamingIdentifier
        }
    }

    public var elementID: String? {
        switch self {
        case .attribute(let a): return a.elementID
        case .relationship(let r): return r.elementID
        }
    }

    public var isTransient: Bool {
        switch self {
        case .attribute(let a): return a.isTransient
        case .relationship(let r): return r.isTransient
        }
    }

    public var userInfo: [UserInfoEntry] {
        switch self {
        case .attribute(let a): return a.userInfo
        case .relationship(let r): return r.userInfo
        }
    }

    /// The same property at another place.
    func located(at location: SourceLocation) -> Property {
        switch self {
        case .attribute(var a): a.location = location; return .attribute(a)
        case .relationship(var r): r.location = location; return .relationship(r)
        }
    }

    public var kindName: String {
        switch self {
        case .attribute: return "attribute"
        case .relationship: return "relationship"
        }
    }
}

public struct UniquenessConstraint: Hashable, Sendable {
    /// The property names that together must be unique.
    public var properties: [String]
    public var location: SourceLocation
}

public struct FetchIndexElement: Hashable, Sendable {
    public var property: String?
    public var expression: String?
    public var type: String?
    public var order: String?
    public var location: SourceLocation
}

public struct FetchIndex: Hashable, Sendable {
    public var name: String
    public var elements: [FetchIndexElement]
    public var location: SourceLocation
}

public struct Entity: Hashable, Sendable {
    public var name: String
    public var location: SourceLocation
    public var representedClassName: String?
    public var parentEntity: String?
    public var isAbstract: Bool = false
    public var elementID: String?
    public var renamingIdentifierAttribute: String?
    public var versionHashModifier: String?
    public var codeGenerationType: String?
    /// Attributes and relationships this entity declares itself, in file order.
    public var properties: [Property] = []
    public var fetchedProperties: [FetchedProperty] = []
    public var uniquenessConstraints: [UniquenessConstraint] = []
    public var fetchIndexes: [FetchIndex] = []
    /// Pre-iOS 11 `compoundIndexes`: each entry a list of property names.
    public var compoundIndexes: [UniquenessConstraint] = []
    public var userInfo: [UserInfoEntry] = []

    public init(name: String, location: SourceLocation) {
        self.name = name
        self.location = location
    }

    public var renamingIdentifier: String { elementID ?? name }

    public var attributes: [Attribute] {
        properties.compactMap { if case .attribute(let a) = $0 { return a } else { return nil } }
    }

    public var relationships: [Relationship] {
        properties.compactMap { if case .relationship(let r) = $0 { return r } else { return nil } }
    }
}

public struct ConfigurationMember: Hashable, Sendable {
    public var entity: String
    public var location: SourceLocation
}

/// A named subset of entities (`<configuration>`), e.g. the part of a model CloudKit mirrors.
public struct ModelConfiguration: Hashable, Sendable {
    public var name: String
    public var location: SourceLocation
    public var usedWithCloudKit: Bool = false
    public var members: [ConfigurationMember] = []
}

/// An XML attribute or element that the Core Data model format does not have.
public struct UnknownXML: Hashable, Sendable {
    public enum Kind: Hashable, Sendable { case attribute, element }
    public var kind: Kind
    /// The attribute's or element's name.
    public var name: String
    /// The element it appeared on (for an unknown element: its parent).
    public var element: String
    public var location: SourceLocation
}

extension SourceLocation {
    /// Stands in for every location when two elements are compared for content alone.
    static let anywhere = SourceLocation(file: "")
}

extension Entity {
    /// The entity with every source location inside it replaced, visited in a fixed order: the entity, its
    /// properties, fetched properties (and their requests), uniqueness constraints, compound indexes, fetch
    /// indexes (and their elements). The one place that knows where an entity keeps locations.
    func mapLocations(_ transform: (SourceLocation) -> SourceLocation) -> Entity {
        var copy = self
        copy.location = transform(location)
        copy.properties = properties.map { $0.located(at: transform($0.location)) }
        copy.fetchedProperties = fetchedProperties.map { f in
            var f = f
            f.location = transform(f.location)
            if let request = f.fetchRequest { f.fetchRequest?.location = transform(request.location) }
            return f
        }
        copy.uniquenessConstraints = uniquenessConstraints.map { UniquenessConstraint(properties: $0.properties, location: transform($0.location)) }
        copy.compoundIndexes = compoundIndexes.map { UniquenessConstraint(properties: $0.properties, location: transform($0.location)) }
        copy.fetchIndexes = fetchIndexes.map { index in
            let location = transform(index.location)
            return FetchIndex(name: index.name, elements: index.elements.map { e in
                var e = e
                e.location = transform(e.location)
                return e
            }, location: location)
        }
        return copy
    }

    /// Every element location inside the entity, in `mapLocations` order: two entities of equal content list
    /// their elements' places position for position. Read without building the copy `mapLocations` builds.
    var elementLocations: [SourceLocation] {
        var locations = [location]
        locations += properties.map(\.location)
        for fetched in fetchedProperties {
            locations.append(fetched.location)
            if let request = fetched.fetchRequest { locations.append(request.location) }
        }
        locations += uniquenessConstraints.map(\.location)
        locations += compoundIndexes.map(\.location)
        for index in fetchIndexes {
            locations.append(index.location)
            locations += index.elements.map(\.location)
        }
        return locations
    }

    /// The entity with every source location blanked, so equal content hashes equal across versions.
    var withoutLocations: Entity { mapLocations { _ in .anywhere } }
}

extension Array where Element == SourceLocation {
    /// Where `location` stands among these element locations of one file (`Entity.elementLocations` of an
    /// entity and the entities around it), matched by line and column: a few dozen places, so a scan beats
    /// hashing each location's path.
    func position(of location: SourceLocation) -> Int? {
        firstIndex { $0.line == location.line && $0.column == location.column }
    }
}
