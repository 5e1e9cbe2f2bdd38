/// Turns the known-vocabulary tree into typed model values.
package struct ModelBuilder {
    package let path: String
    package var cache: EntitySourceCache? = nil

    package func build(root: XMLNode, unknown: [UnknownXML]) -> Model {
        var entities: [Entity] = []
        var sourceHashes: [Int?] = []
        var configurations: [ModelConfiguration] = []
        var fetchRequests: [FetchRequest] = []
        var composites: [String] = []
        for child in root.children {
            switch child.name {
            case "entity":
                if let cached = child.source.cached, let line = child.location.line, let column = child.location.column
                {
                    entities.append(cached.placed(in: child.location.sourceFile, line: line, column: column))
                } else {
                    let built = entity(child)
                    entities.append(built)
                    if let cache, let text = child.source.cacheableText, let hash = child.source.hash,
                        let line = child.location.line, let column = child.location.column
                    {
                        cache.insert(
                            EntitySourceCache.Entry(
                                text: text, entity: built, unknownXML: Array(unknown[child.source.unknownXML]),
                                line: line, column: column),
                            forSourceHash: hash)
                    }
                }
                sourceHashes.append(child.source.hash)
            case "configuration":
                var configuration = ModelConfiguration(name: child.attributes["name"] ?? "", location: child.location)
                configuration.usedWithCloudKit = flag(child, "usedWithCloudKit")
                configuration.members = child.children.map {
                    ConfigurationMember(entity: $0.attributes["name"] ?? "", location: $0.location)
                }
                configurations.append(configuration)
            case "fetchRequest": fetchRequests.append(fetchRequest(child))
            case "composite": composites.append(child.attributes["name"] ?? "")
            default: break  // <elements>: diagram layout, tooling metadata
            }
        }
        return Model(
            location: root.location, header: root.attributes, entities: entities,
            configurations: configurations, fetchRequests: fetchRequests, composites: composites,
            unknownXML: unknown, entitySourceHashes: sourceHashes, hashCache: cache?.hashes ?? CoreDataHashCache())
    }

    private func flag(_ node: XMLNode, _ key: String) -> Bool { node.attributes[key] == "YES" }

    private func userInfo(_ node: XMLNode) -> [UserInfoEntry] {
        node.children.filter { $0.name == "userInfo" }.flatMap(\.children).map {
            UserInfoEntry(key: $0.attributes["key"] ?? "", value: $0.attributes["value"] ?? "")
        }
    }

    private func fetchRequest(_ node: XMLNode) -> FetchRequest {
        FetchRequest(
            name: node.attributes["name"] ?? "", entity: node.attributes["entity"],
            predicate: node.attributes["predicateString"], location: node.location)
    }

    private func entity(_ node: XMLNode) -> Entity {
        let a = node.attributes
        var entity = Entity.Fields(name: a["name"] ?? "")
        var properties: [Property] = []
        entity.representedClassName = a["representedClassName"]
        entity.parentEntity = a["parentEntity"]
        entity.isAbstract = flag(node, "isAbstract")
        entity.elementID = a["elementID"]
        entity.renamingIdentifierAttribute = a["renamingIdentifier"]
        entity.versionHashModifier = a["versionHashModifier"]
        entity.codeGenerationType = a["codeGenerationType"]
        entity.userInfo = userInfo(node)
        for child in node.children {
            switch child.name {
            case "attribute", "relationship":
                if let cached = child.source.cachedProperty {
                    properties.append(cached.property.located(at: child.location))
                    continue
                }
                let built: Property =
                    child.name == "attribute" ? .attribute(attribute(child)) : .relationship(relationship(child))
                properties.append(built)
                if let cache, let text = child.source.cacheableText, let hash = child.source.hash {
                    cache.insert(EntitySourceCache.PropertyEntry(text: text, property: built), forSourceHash: hash)
                }
            case "fetchedProperty":
                entity.fetchedProperties.append(
                    FetchedProperty(
                        name: child.attributes["name"] ?? "", location: child.location,
                        isOptional: flag(child, "optional"),
                        fetchRequest: child.children.first { $0.name == "fetchRequest" }.map(fetchRequest),
                        userInfo: userInfo(child)))
            case "uniquenessConstraints":
                entity.uniquenessConstraints += child.children.map {
                    UniquenessConstraint(
                        properties: $0.children.compactMap { $0.attributes["value"] }, location: $0.location)
                }
            case "compoundIndexes":
                entity.compoundIndexes += child.children.map {
                    UniquenessConstraint(
                        properties: $0.children.compactMap { $0.attributes["value"] }, location: $0.location)
                }
            case "fetchIndex":
                entity.fetchIndexes.append(
                    FetchIndex(
                        name: child.attributes["name"] ?? "",
                        elements: child.children.map {
                            FetchIndexElement(
                                property: $0.attributes["property"], expression: $0.attributes["expression"],
                                type: $0.attributes["type"], order: $0.attributes["order"], location: $0.location)
                        },
                        location: child.location))
            default: break
            }
        }
        return Entity(location: node.location, properties: properties, fields: entity)
    }

    private func attribute(_ node: XMLNode) -> Attribute {
        var attribute = Attribute.Fields(
            name: node.attributes["name"] ?? "",
            type: AttributeType(xmlValue: node.attributes["attributeType"] ?? "Undefined"))
        Self.forEachField(of: node, in: Self.attributeFields) { field, value, yes in
            switch field {
            case .optional: attribute.isOptional = yes
            case .transient: attribute.isTransient = yes
            case .defaultValueString: attribute.defaultValueString = value
            case .defaultDateTimeInterval: attribute.defaultDateTimeInterval = value
            case .minValueString: attribute.minValueString = value
            case .maxValueString: attribute.maxValueString = value
            case .regularExpressionString: attribute.regularExpressionString = value
            case .usesScalarValueType: attribute.usesScalarValueType = yes
            case .valueTransformerName: attribute.valueTransformerName = value
            case .customClassName: attribute.customClassName = value
            case .allowsExternalBinaryDataStorage: attribute.allowsExternalBinaryDataStorage = yes
            case .preserveAfterDeletion: attribute.preserveAfterDeletion = yes
            case .allowsCloudEncryption: attribute.allowsCloudEncryption = yes
            case .spotlightIndexingEnabled: attribute.spotlightIndexingEnabled = yes
            case .indexed: attribute.isIndexed = yes
            case .derived: attribute.isDerived = yes
            case .derivationExpression: attribute.derivationExpression = value
            case .elementID: attribute.elementID = value
            case .renamingIdentifier: attribute.renamingIdentifierAttribute = value
            case .versionHashModifier: attribute.versionHashModifier = value
            case .composite: attribute.compositeName = value
            }
        }
        if !node.children.isEmpty { attribute.userInfo = userInfo(node) }
        return Attribute(location: node.location, fields: attribute)
    }

    /// One pass over the XML attributes present that set a field (with the value, and whether it is YES): most of
    /// the possible keys are absent on any one property. A table lookup, not a `switch` over strings: that compares
    /// the key with every case in turn.
    private static func forEachField<Field>(
        of node: XMLNode, in table: XMLVocabulary.Table<Field>, _ body: (Field, String, Bool) -> Void
    ) {
        for (key, value) in node.attributes {
            if let field = table[key] { body(field, value, value == "YES") }
        }
    }

    /// The `<attribute>` XML attributes that set an `Attribute` field other than its name and type.
    private enum AttributeField: String, CaseIterable {
        case optional, transient, defaultValueString, defaultDateTimeInterval, minValueString, maxValueString
        case regularExpressionString, usesScalarValueType, valueTransformerName, customClassName
        case allowsExternalBinaryDataStorage, preserveAfterDeletion, allowsCloudEncryption, spotlightIndexingEnabled
        case indexed, derived, derivationExpression, elementID, renamingIdentifier, versionHashModifier, composite
    }

    private static let attributeFields = XMLVocabulary.Table(AttributeField.allCases.map { ($0.rawValue, $0) })

    private func relationship(_ node: XMLNode) -> Relationship {
        var relationship = Relationship.Fields(name: node.attributes["name"] ?? "")
        Self.forEachField(of: node, in: Self.relationshipFields) { field, value, yes in
            switch field {
            case .optional: relationship.isOptional = yes
            case .transient: relationship.isTransient = yes
            case .toMany: relationship.isToMany = yes
            case .ordered: relationship.isOrdered = yes
            case .minCount: relationship.minCount = Int(value)
            case .maxCount: relationship.maxCount = Int(value)
            case .indexed: relationship.isIndexed = yes
            case .destinationEntity: relationship.destinationEntity = value
            case .inverseName: relationship.inverseName = value
            case .inverseEntity: relationship.inverseEntity = value
            case .elementID: relationship.elementID = value
            case .renamingIdentifier: relationship.renamingIdentifierAttribute = value
            case .versionHashModifier: relationship.versionHashModifier = value
            }
        }
        relationship.deleteRule = DeleteRule(xmlValue: node.attributes["deletionRule"])
        relationship.userInfo = userInfo(node)
        return Relationship(location: node.location, fields: relationship)
    }

    /// The `<relationship>` XML attributes that set a `Relationship` field other than its name and delete rule.
    private enum RelationshipField: String, CaseIterable {
        case optional, transient, toMany, ordered, minCount, maxCount, indexed, destinationEntity, inverseName
        case inverseEntity, elementID, renamingIdentifier, versionHashModifier
    }

    private static let relationshipFields = XMLVocabulary.Table(
        RelationshipField.allCases.map { ($0.rawValue, $0) })

    package init(path: String, cache: EntitySourceCache? = nil) {
        self.path = path
        self.cache = cache
    }
}
