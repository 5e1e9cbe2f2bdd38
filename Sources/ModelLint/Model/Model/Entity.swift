/// A value's fields other than its location, in one immutable box that every copy shares: entities and
/// properties are copied into every diff, pair and finding, and a copy of two dozen fields is two dozen
/// reference counts; placing a repeated entity from the cache changes only locations, which stay outside.
/// A change builds a new box: values are built once and read many times.
@usableFromInline
package final class SharedFields<Value: Hashable & Sendable>: Hashable, Sendable {
    @usableFromInline package let value: Value

    @inlinable package init(_ value: Value) { self.value = value }

    @inlinable package func with(_ change: (inout Value) -> Void) -> SharedFields {
        var copy = value
        change(&copy)
        return SharedFields(copy)
    }

    @usableFromInline package static func == (a: SharedFields, b: SharedFields) -> Bool {
        a === b || a.value == b.value
    }
    @usableFromInline package func hash(into hasher: inout Hasher) { hasher.combine(value) }
}

/// Printed as the fields themselves: a value's description (tests, the fuzzer's differential check) shows
/// its content, not the box.
extension SharedFields: CustomStringConvertible, CustomDebugStringConvertible {
    @usableFromInline package var description: String { String(describing: value) }
    @usableFromInline package var debugDescription: String { String(reflecting: value) }
}

/// One `key`/`value` pair of an element's User Info.
package struct UserInfoEntry: Hashable, Sendable {
    package var key: String
    package var value: String

    package init(key: String, value: String) {
        self.key = key
        self.value = value
    }
}

package struct Attribute: Hashable, Sendable {
    package var location: SourceLocation
    @usableFromInline package var fields: SharedFields<Fields>

    /// Everything but the location, shared by every copy (see `SharedFields`).
    package struct Fields: Hashable, Sendable {
        package var name: String
        package var type: AttributeType
        package var isOptional: Bool = false
        package var isTransient: Bool = false
        package var defaultValueString: String?
        package var defaultDateTimeInterval: String?
        /// A default that is evaluated, not written as a value (a SwiftData property's `= Data()`, `= []`,
        /// `= .distantPast`): the store gets one, but modellint does not know it. Not hashed, like every default.
        package var defaultExpression: String?
        package var minValueString: String?
        package var maxValueString: String?
        package var regularExpressionString: String?
        package var usesScalarValueType: Bool?
        package var valueTransformerName: String?
        package var customClassName: String?
        package var allowsExternalBinaryDataStorage: Bool = false
        package var preserveAfterDeletion: Bool = false
        package var allowsCloudEncryption: Bool = false
        package var spotlightIndexingEnabled: Bool = false
        package var isIndexed: Bool = false
        package var isDerived: Bool = false
        package var derivationExpression: String?
        package var elementID: String?
        package var renamingIdentifierAttribute: String?
        package var versionHashModifier: String?
        package var compositeName: String?
        package var userInfo: [UserInfoEntry] = []

        package init(name: String, type: AttributeType) {
            self.name = name
            self.type = type
        }
    }

    package init(name: String, location: SourceLocation, type: AttributeType) {
        self.init(location: location, fields: Fields(name: name, type: type))
    }

    package init(location: SourceLocation, fields: Fields) {
        self.location = location
        self.fields = SharedFields(fields)
    }

    @inlinable package var name: String {
        get { fields.value.name }
        set { fields = fields.with { $0.name = newValue } }
    }
    @inlinable package var type: AttributeType {
        get { fields.value.type }
        set { fields = fields.with { $0.type = newValue } }
    }
    /// `optional="YES"`; a missing `optional` means non-optional.
    @inlinable package var isOptional: Bool {
        get { fields.value.isOptional }
        set { fields = fields.with { $0.isOptional = newValue } }
    }
    @inlinable package var isTransient: Bool {
        get { fields.value.isTransient }
        set { fields = fields.with { $0.isTransient = newValue } }
    }
    @inlinable package var defaultValueString: String? {
        get { fields.value.defaultValueString }
        set { fields = fields.with { $0.defaultValueString = newValue } }
    }
    @inlinable package var defaultDateTimeInterval: String? {
        get { fields.value.defaultDateTimeInterval }
        set { fields = fields.with { $0.defaultDateTimeInterval = newValue } }
    }
    @inlinable package var minValueString: String? {
        get { fields.value.minValueString }
        set { fields = fields.with { $0.minValueString = newValue } }
    }
    @inlinable package var maxValueString: String? {
        get { fields.value.maxValueString }
        set { fields = fields.with { $0.maxValueString = newValue } }
    }
    @inlinable package var regularExpressionString: String? {
        get { fields.value.regularExpressionString }
        set { fields = fields.with { $0.regularExpressionString = newValue } }
    }
    @inlinable package var usesScalarValueType: Bool? {
        get { fields.value.usesScalarValueType }
        set { fields = fields.with { $0.usesScalarValueType = newValue } }
    }
    @inlinable package var valueTransformerName: String? {
        get { fields.value.valueTransformerName }
        set { fields = fields.with { $0.valueTransformerName = newValue } }
    }
    @inlinable package var customClassName: String? {
        get { fields.value.customClassName }
        set { fields = fields.with { $0.customClassName = newValue } }
    }
    @inlinable package var allowsExternalBinaryDataStorage: Bool {
        get { fields.value.allowsExternalBinaryDataStorage }
        set { fields = fields.with { $0.allowsExternalBinaryDataStorage = newValue } }
    }
    @inlinable package var preserveAfterDeletion: Bool {
        get { fields.value.preserveAfterDeletion }
        set { fields = fields.with { $0.preserveAfterDeletion = newValue } }
    }
    @inlinable package var allowsCloudEncryption: Bool {
        get { fields.value.allowsCloudEncryption }
        set { fields = fields.with { $0.allowsCloudEncryption = newValue } }
    }
    @inlinable package var spotlightIndexingEnabled: Bool {
        get { fields.value.spotlightIndexingEnabled }
        set { fields = fields.with { $0.spotlightIndexingEnabled = newValue } }
    }
    @inlinable package var isIndexed: Bool {
        get { fields.value.isIndexed }
        set { fields = fields.with { $0.isIndexed = newValue } }
    }
    @inlinable package var isDerived: Bool {
        get { fields.value.isDerived }
        set { fields = fields.with { $0.isDerived = newValue } }
    }
    @inlinable package var derivationExpression: String? {
        get { fields.value.derivationExpression }
        set { fields = fields.with { $0.derivationExpression = newValue } }
    }
    /// The Renaming ID field as Xcode writes it.
    @inlinable package var elementID: String? {
        get { fields.value.elementID }
        set { fields = fields.with { $0.elementID = newValue } }
    }
    /// A literal `renamingIdentifier="..."` XML attribute: not Xcode's format, ignored by the model compiler.
    @inlinable package var renamingIdentifierAttribute: String? {
        get { fields.value.renamingIdentifierAttribute }
        set { fields = fields.with { $0.renamingIdentifierAttribute = newValue } }
    }
    @inlinable package var versionHashModifier: String? {
        get { fields.value.versionHashModifier }
        set { fields = fields.with { $0.versionHashModifier = newValue } }
    }
    /// The model-level composite this attribute instantiates (`attributeType="Composite"`).
    @inlinable package var compositeName: String? {
        get { fields.value.compositeName }
        set { fields = fields.with { $0.compositeName = newValue } }
    }
    @inlinable package var userInfo: [UserInfoEntry] {
        get { fields.value.userInfo }
        set { fields = fields.with { $0.userInfo = newValue } }
    }

    /// What inferred migration matches on: `elementID`, else the name.
    @inlinable package var renamingIdentifier: String { elementID ?? name }

    /// `defaultValueString` present (an empty string is a default), `defaultDateTimeInterval` on a Date, or an
    /// evaluated default (`defaultExpression`).
    package var hasDefault: Bool {
        defaultValueString != nil || (type == .date && defaultDateTimeInterval != nil)
            || fields.value.defaultExpression != nil
    }
}

package struct Relationship: Hashable, Sendable {
    package var location: SourceLocation
    @usableFromInline package var fields: SharedFields<Fields>

    /// Everything but the location, shared by every copy (see `SharedFields`).
    package struct Fields: Hashable, Sendable {
        package var name: String
        package var isOptional: Bool = false
        package var isTransient: Bool = false
        package var isToMany: Bool = false
        package var isOrdered: Bool = false
        package var minCount: Int?
        package var maxCount: Int?
        package var deleteRule: DeleteRule = .nullify
        /// `indexed="YES"`: Xcode wrote it on relationships until about Xcode 12.
        package var isIndexed: Bool = false
        package var destinationEntity: String?
        package var inverseName: String?
        package var inverseEntity: String?
        package var elementID: String?
        package var renamingIdentifierAttribute: String?
        package var versionHashModifier: String?
        package var userInfo: [UserInfoEntry] = []

        package init(name: String) {
            self.name = name
        }
    }

    package init(name: String, location: SourceLocation) {
        self.init(location: location, fields: Fields(name: name))
    }

    package init(location: SourceLocation, fields: Fields) {
        self.location = location
        self.fields = SharedFields(fields)
    }

    @inlinable package var name: String {
        get { fields.value.name }
        set { fields = fields.with { $0.name = newValue } }
    }
    @inlinable package var isOptional: Bool {
        get { fields.value.isOptional }
        set { fields = fields.with { $0.isOptional = newValue } }
    }
    @inlinable package var isTransient: Bool {
        get { fields.value.isTransient }
        set { fields = fields.with { $0.isTransient = newValue } }
    }
    @inlinable package var isToMany: Bool {
        get { fields.value.isToMany }
        set { fields = fields.with { $0.isToMany = newValue } }
    }
    @inlinable package var isOrdered: Bool {
        get { fields.value.isOrdered }
        set { fields = fields.with { $0.isOrdered = newValue } }
    }
    @inlinable package var minCount: Int? {
        get { fields.value.minCount }
        set { fields = fields.with { $0.minCount = newValue } }
    }
    @inlinable package var maxCount: Int? {
        get { fields.value.maxCount }
        set { fields = fields.with { $0.maxCount = newValue } }
    }
    @inlinable package var deleteRule: DeleteRule {
        get { fields.value.deleteRule }
        set { fields = fields.with { $0.deleteRule = newValue } }
    }
    @inlinable package var isIndexed: Bool {
        get { fields.value.isIndexed }
        set { fields = fields.with { $0.isIndexed = newValue } }
    }
    @inlinable package var destinationEntity: String? {
        get { fields.value.destinationEntity }
        set { fields = fields.with { $0.destinationEntity = newValue } }
    }
    @inlinable package var inverseName: String? {
        get { fields.value.inverseName }
        set { fields = fields.with { $0.inverseName = newValue } }
    }
    @inlinable package var inverseEntity: String? {
        get { fields.value.inverseEntity }
        set { fields = fields.with { $0.inverseEntity = newValue } }
    }
    @inlinable package var elementID: String? {
        get { fields.value.elementID }
        set { fields = fields.with { $0.elementID = newValue } }
    }
    @inlinable package var renamingIdentifierAttribute: String? {
        get { fields.value.renamingIdentifierAttribute }
        set { fields = fields.with { $0.renamingIdentifierAttribute = newValue } }
    }
    @inlinable package var versionHashModifier: String? {
        get { fields.value.versionHashModifier }
        set { fields = fields.with { $0.versionHashModifier = newValue } }
    }
    @inlinable package var userInfo: [UserInfoEntry] {
        get { fields.value.userInfo }
        set { fields = fields.with { $0.userInfo = newValue } }
    }

    @inlinable package var renamingIdentifier: String { elementID ?? name }
}

/// A property whose value comes from a fetch request, never stored.
package struct FetchedProperty: Hashable, Sendable {
    package var name: String
    package var location: SourceLocation
    package var isOptional: Bool = false
    package var fetchRequest: FetchRequest?
    package var userInfo: [UserInfoEntry] = []

    package init(
        name: String, location: SourceLocation, isOptional: Bool = false, fetchRequest: FetchRequest? = nil,
        userInfo: [UserInfoEntry] = []
    ) {
        self.name = name
        self.location = location
        self.isOptional = isOptional
        self.fetchRequest = fetchRequest
        self.userInfo = userInfo
    }
}

/// A fetch request template (`<fetchRequest>` at model level or inside a fetched property).
package struct FetchRequest: Hashable, Sendable {
    package var name: String
    package var entity: String?
    package var predicate: String?
    package var location: SourceLocation

    package init(name: String, entity: String? = nil, predicate: String? = nil, location: SourceLocation) {
        self.name = name
        self.entity = entity
        self.predicate = predicate
        self.location = location
    }
}

/// An attribute or relationship: the two kinds of property that take part in migration.
/// Indirect: a copy is one reference count on a box of this version's own. Inline, a copy would count the
/// shared fields box too, and the change rules' copies on both cores would contend for the same counts.
package indirect enum Property: Hashable, Sendable {
    case attribute(Attribute)
    case relationship(Relationship)

    @inlinable package var name: String {
        switch self {
        case .attribute(let a): return a.name
        case .relationship(let r): return r.name
        }
    }

    @inlinable package var location: SourceLocation {
        switch self {
        case .attribute(let a): return a.location
        case .relationship(let r): return r.location
        }
    }

    @inlinable package var renamingIdentifier: String {
        switch self {
        case .attribute(let a): return a.renamingIdentifier
        case .relationship(let r): return r.renamingIdentifier
        }
    }

    @inlinable package var elementID: String? {
        switch self {
        case .attribute(let a): return a.elementID
        case .relationship(let r): return r.elementID
        }
    }

    /// A literal `renamingIdentifier="..."` XML attribute: not Xcode's format, ignored by the model compiler.
    @inlinable package var renamingIdentifierAttribute: String? {
        switch self {
        case .attribute(let a): return a.renamingIdentifierAttribute
        case .relationship(let r): return r.renamingIdentifierAttribute
        }
    }

    @inlinable package var isTransient: Bool {
        switch self {
        case .attribute(let a): return a.isTransient
        case .relationship(let r): return r.isTransient
        }
    }

    @inlinable package var userInfo: [UserInfoEntry] {
        switch self {
        case .attribute(let a): return a.userInfo
        case .relationship(let r): return r.userInfo
        }
    }

    /// The same property at another place.
    package func located(at location: SourceLocation) -> Property {
        switch self {
        case .attribute(var a):
            a.location = location
            return .attribute(a)
        case .relationship(var r):
            r.location = location
            return .relationship(r)
        }
    }

    package var kindName: String {
        switch self {
        case .attribute: return "attribute"
        case .relationship: return "relationship"
        }
    }
}

package struct UniquenessConstraint: Hashable, Sendable {
    /// The property names that together must be unique.
    package var properties: [String]
    package var location: SourceLocation

    package init(properties: [String], location: SourceLocation) {
        self.properties = properties
        self.location = location
    }
}

package struct FetchIndexElement: Hashable, Sendable {
    package var property: String?
    package var expression: String?
    package var type: String?
    package var order: String?
    package var location: SourceLocation

    package init(
        property: String? = nil, expression: String? = nil, type: String? = nil, order: String? = nil,
        location: SourceLocation
    ) {
        self.property = property
        self.expression = expression
        self.type = type
        self.order = order
        self.location = location
    }
}

package struct FetchIndex: Hashable, Sendable {
    package var name: String
    package var elements: [FetchIndexElement]
    package var location: SourceLocation

    package init(name: String, elements: [FetchIndexElement], location: SourceLocation) {
        self.name = name
        self.elements = elements
        self.location = location
    }
}

package struct Entity: Hashable, Sendable {
    package var location: SourceLocation
    /// Attributes and relationships this entity declares itself, in file order.
    package var properties: [Property]
    @usableFromInline package var fields: SharedFields<Fields>

    /// Everything but the location, shared by every copy (see `SharedFields`).
    package struct Fields: Hashable, Sendable {
        package var name: String
        package var representedClassName: String?
        package var parentEntity: String?
        package var isAbstract: Bool = false
        package var elementID: String?
        package var renamingIdentifierAttribute: String?
        package var versionHashModifier: String?
        package var codeGenerationType: String?
        package var fetchedProperties: [FetchedProperty] = []
        package var uniquenessConstraints: [UniquenessConstraint] = []
        package var fetchIndexes: [FetchIndex] = []
        package var compoundIndexes: [UniquenessConstraint] = []
        package var userInfo: [UserInfoEntry] = []

        package init(name: String) {
            self.name = name
        }
    }

    package init(name: String, location: SourceLocation) {
        self.init(location: location, properties: [], fields: Fields(name: name))
    }

    package init(location: SourceLocation, properties: [Property], fields: Fields) {
        self.location = location
        self.properties = properties
        self.fields = SharedFields(fields)
    }

    @inlinable package var name: String {
        get { fields.value.name }
        set { fields = fields.with { $0.name = newValue } }
    }
    @inlinable package var representedClassName: String? {
        get { fields.value.representedClassName }
        set { fields = fields.with { $0.representedClassName = newValue } }
    }
    @inlinable package var parentEntity: String? {
        get { fields.value.parentEntity }
        set { fields = fields.with { $0.parentEntity = newValue } }
    }
    @inlinable package var isAbstract: Bool {
        get { fields.value.isAbstract }
        set { fields = fields.with { $0.isAbstract = newValue } }
    }
    @inlinable package var elementID: String? {
        get { fields.value.elementID }
        set { fields = fields.with { $0.elementID = newValue } }
    }
    @inlinable package var renamingIdentifierAttribute: String? {
        get { fields.value.renamingIdentifierAttribute }
        set { fields = fields.with { $0.renamingIdentifierAttribute = newValue } }
    }
    @inlinable package var versionHashModifier: String? {
        get { fields.value.versionHashModifier }
        set { fields = fields.with { $0.versionHashModifier = newValue } }
    }
    @inlinable package var codeGenerationType: String? {
        get { fields.value.codeGenerationType }
        set { fields = fields.with { $0.codeGenerationType = newValue } }
    }
    @inlinable package var fetchedProperties: [FetchedProperty] {
        get { fields.value.fetchedProperties }
        set { fields = fields.with { $0.fetchedProperties = newValue } }
    }
    @inlinable package var uniquenessConstraints: [UniquenessConstraint] {
        get { fields.value.uniquenessConstraints }
        set { fields = fields.with { $0.uniquenessConstraints = newValue } }
    }
    @inlinable package var fetchIndexes: [FetchIndex] {
        get { fields.value.fetchIndexes }
        set { fields = fields.with { $0.fetchIndexes = newValue } }
    }
    /// Pre-iOS 11 `compoundIndexes`: each entry a list of property names.
    @inlinable package var compoundIndexes: [UniquenessConstraint] {
        get { fields.value.compoundIndexes }
        set { fields = fields.with { $0.compoundIndexes = newValue } }
    }
    @inlinable package var userInfo: [UserInfoEntry] {
        get { fields.value.userInfo }
        set { fields = fields.with { $0.userInfo = newValue } }
    }

    @inlinable package var renamingIdentifier: String { elementID ?? name }

    package var attributes: [Attribute] {
        properties.compactMap { if case .attribute(let a) = $0 { return a } else { return nil } }
    }

    package var relationships: [Relationship] {
        properties.compactMap { if case .relationship(let r) = $0 { return r } else { return nil } }
    }
}

package struct ConfigurationMember: Hashable, Sendable {
    package var entity: String
    package var location: SourceLocation

    package init(entity: String, location: SourceLocation) {
        self.entity = entity
        self.location = location
    }
}

/// A named subset of entities (`<configuration>`), e.g. the part of a model CloudKit mirrors.
package struct ModelConfiguration: Hashable, Sendable {
    package var name: String
    package var location: SourceLocation
    package var usedWithCloudKit: Bool = false
    package var members: [ConfigurationMember] = []

    package init(
        name: String, location: SourceLocation, usedWithCloudKit: Bool = false, members: [ConfigurationMember] = []
    ) {
        self.name = name
        self.location = location
        self.usedWithCloudKit = usedWithCloudKit
        self.members = members
    }
}

/// An XML attribute or element that the Core Data model format does not have.
package struct UnknownXML: Hashable, Sendable {
    package enum Kind: Hashable, Sendable { case attribute, element }
    package var kind: Kind
    /// The attribute's or element's name.
    package var name: String
    /// The element it appeared on (for an unknown element: its parent).
    package var element: String
    package var location: SourceLocation
    /// The entity and property (attribute, relationship or fetched property) it stands in, when it does.
    package var entity: String?
    package var property: String?

    package init(
        kind: Kind, name: String, element: String, location: SourceLocation, entity: String? = nil,
        property: String? = nil
    ) {
        self.kind = kind
        self.name = name
        self.element = element
        self.location = location
        self.entity = entity
        self.property = property
    }
}

extension SourceLocation {
    /// Stands in for every location when two elements are compared for content alone.
    package static let anywhere = SourceLocation(file: "")
}

extension Entity {
    /// The entity with every source location inside it replaced, visited in a fixed order: the entity, its
    /// properties, fetched properties (and their requests), uniqueness constraints, compound indexes, fetch
    /// indexes (and their elements). The one place that knows where an entity keeps locations.
    package func mapLocations(_ transform: (SourceLocation) -> SourceLocation) -> Entity {
        var copy = self
        copy.location = transform(location)
        copy.properties = properties.map { $0.located(at: transform($0.location)) }
        let f = fields.value
        // Most entities have none of these: their shared fields stay shared.
        guard
            !f.fetchedProperties.isEmpty || !f.uniquenessConstraints.isEmpty || !f.compoundIndexes.isEmpty
                || !f.fetchIndexes.isEmpty
        else { return copy }
        copy.fields = fields.with { f in
            f.fetchedProperties = f.fetchedProperties.map { fetched in
                var fetched = fetched
                fetched.location = transform(fetched.location)
                if let request = fetched.fetchRequest { fetched.fetchRequest?.location = transform(request.location) }
                return fetched
            }
            f.uniquenessConstraints = f.uniquenessConstraints.map {
                UniquenessConstraint(properties: $0.properties, location: transform($0.location))
            }
            f.compoundIndexes = f.compoundIndexes.map {
                UniquenessConstraint(properties: $0.properties, location: transform($0.location))
            }
            f.fetchIndexes = f.fetchIndexes.map { index in
                let location = transform(index.location)
                return FetchIndex(
                    name: index.name,
                    elements: index.elements.map { e in
                        var e = e
                        e.location = transform(e.location)
                        return e
                    }, location: location)
            }
        }
        return copy
    }

    /// Every element location inside the entity, in `mapLocations` order: two entities of equal content list
    /// their elements' places position for position. Read without building the copy `mapLocations` builds.
    package var elementLocations: [SourceLocation] {
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
    package var withoutLocations: Entity { mapLocations { _ in .anywhere } }
}

extension Array where Element == SourceLocation {
    /// Where `location` stands among these element locations of one file (`Entity.elementLocations` of an
    /// entity and the entities around it), matched by line and column: a few dozen places, so a scan beats
    /// hashing each location's path.
    package func position(of location: SourceLocation) -> Int? {
        firstIndex { $0.line == location.line && $0.column == location.column }
    }
}

extension Entity {
    /// Indexes as an order-insensitive set of (name, elements) descriptions.
    package var indexSignature: Set<String> {
        Set(
            fetchIndexes.map { index in
                index.name + "("
                    + index.elements.map { "\($0.property ?? $0.expression ?? ""):\($0.type ?? ""):\($0.order ?? "")" }
                    .joined(separator: ",") + ")"
            } + compoundIndexes.map { "compound(" + $0.properties.joined(separator: ",") + ")" })
    }
}
