/// Canonical, order-insensitive descriptions of a model, for "did it change?" questions that must
/// ignore how Xcode happened to write the file.
public enum Fingerprint {
    /// What core-data-semantics.md §4 says feeds an entity's version hash: equal strings mean the
    /// entity's hash is unchanged.
    public static func entityHashInput(_ entity: Entity, in model: Model) -> String {
        var parts = ["name=\(entity.name)", "abstract=\(entity.isAbstract)", "vhm=\(entity.versionHashModifier ?? "")"]
        if let parent = model.entity(named: entity.parentEntity), !model.hasInheritanceCycle(entity) {
            parts.append("parent=(\(entityHashInput(parent, in: model)))")
        } else if let parent = entity.parentEntity {
            parts.append("parent=\(parent)")
        }
        let properties = model.effectiveProperties(of: entity).map(\.property).filter { !$0.isTransient }
        parts.append("properties=[" + properties.map(propertyHashInput).sorted().joined(separator: ";") + "]")
        parts.append("unique=[" + entity.uniquenessConstraints.map { $0.properties.sorted().joined(separator: ",") }.sorted().joined(separator: ";") + "]")
        return parts.joined(separator: "|")
    }

    public static func propertyHashInput(_ property: Property) -> String {
        switch property {
        case .attribute(let a):
            return ["A", a.name, "\(a.isOptional)", "\(a.isTransient)", a.versionHashModifier ?? "", a.type.xmlValue,
                    "\(a.allowsExternalBinaryDataStorage)", "\(a.preserveAfterDeletion)", a.isDerived ? (a.derivationExpression ?? "") : ""]
                .joined(separator: ",")
        case .relationship(let r):
            return ["R", r.name, "\(r.isOptional)", "\(r.isTransient)", r.versionHashModifier ?? "", r.destinationEntity ?? "",
                    r.inverseName ?? "", "\(r.minCount ?? 0)", "\(r.isToMany ? (r.maxCount ?? 0) : 1)", "\(r.isOrdered)"]
                .joined(separator: ",")
        }
    }

    /// Entity name -> hash input, for the whole model.
    public static func entityHashInputs(_ model: Model) -> [String: String] {
        var result: [String: String] = [:]
        for entity in model.entities where result[entity.name] == nil {
            result[entity.name] = entityHashInput(entity, in: model)
        }
        return result
    }

    /// Everything in the model except tooling metadata (tools and system versions, the diagram layout,
    /// element and attribute order, `syncable`).
    public static func content(_ model: Model) -> String {
        var lines: [String] = ["cloudKit=\(model.usedWithCloudKit)", "swiftData=\(model.header["usedWithSwiftData"] ?? "")",
                               "versionIdentifier=\(model.header["userDefinedModelVersionIdentifier"] ?? "")"]
        for entity in model.entities { lines.append(entityContent(entity)) }
        for configuration in model.configurations {
            lines.append("configuration|\(configuration.name)|\(configuration.usedWithCloudKit)|" + configuration.members.map(\.entity).sorted().joined(separator: ","))
        }
        for request in model.fetchRequests {
            lines.append("fetchRequest|\(request.name)|\(request.entity ?? "")|\(request.predicate ?? "")")
        }
        lines.append(contentsOf: model.composites.map { "composite|\($0)" })
        return lines.sorted().joined(separator: "\n")
    }

    /// One entity's content: the entity line, then its properties, each order-insensitive.
    public static func entityContent(_ entity: Entity) -> String {
        var e = ["entity", entity.name, entity.representedClassName ?? "", entity.parentEntity ?? "", "\(entity.isAbstract)",
                 entity.elementID ?? "", entity.renamingIdentifierAttribute ?? "", entity.versionHashModifier ?? "", entity.codeGenerationType ?? ""]
        e.append("userInfo=" + userInfo(entity.userInfo))
        e.append("unique=" + entity.uniquenessConstraints.map { $0.properties.sorted().joined(separator: ",") }.sorted().joined(separator: ";"))
        e.append("indexes=" + ModelDiff.indexSignature(entity).sorted().joined(separator: ";"))
        var lines = [e.joined(separator: "|")]
        lines += entity.properties.map { "  \(entity.name)." + propertyContent($0) }.sorted()
        lines += entity.fetchedProperties.map {
            "  \(entity.name).fetched|\($0.name)|\($0.isOptional)|\($0.fetchRequest?.entity ?? "")|\($0.fetchRequest?.predicate ?? "")|" + userInfo($0.userInfo)
        }.sorted()
        return lines.joined(separator: "\n")
    }

    static func propertyContent(_ property: Property) -> String {
        switch property {
        case .attribute(let a):
            return ["attribute", a.name, a.type.xmlValue, "\(a.isOptional)", "\(a.isTransient)", a.defaultValueString ?? "\u{0}",
                    a.defaultDateTimeInterval ?? "", a.minValueString ?? "", a.maxValueString ?? "", a.regularExpressionString ?? "",
                    "\(a.usesScalarValueType.map(String.init(describing:)) ?? "")", TransformerName.normalized(a.valueTransformerName),
                    a.customClassName ?? "", "\(a.allowsExternalBinaryDataStorage)", "\(a.preserveAfterDeletion)", "\(a.allowsCloudEncryption)",
                    "\(a.spotlightIndexingEnabled)", "\(a.isIndexed)", "\(a.isDerived)", a.derivationExpression ?? "", a.elementID ?? "",
                    a.renamingIdentifierAttribute ?? "", a.versionHashModifier ?? "", a.compositeName ?? "", userInfo(a.userInfo)]
                .joined(separator: "|")
        case .relationship(let r):
            return ["relationship", r.name, "\(r.isOptional)", "\(r.isTransient)", "\(r.isToMany)", "\(r.isOrdered)", "\(r.minCount ?? 0)",
                    "\(r.maxCount ?? 0)", r.deleteRule.xmlValue, r.destinationEntity ?? "", r.inverseName ?? "", r.inverseEntity ?? "",
                    r.elementID ?? "", r.renamingIdentifierAttribute ?? "", r.versionHashModifier ?? "", userInfo(r.userInfo)]
                .joined(separator: "|")
        }
    }

    static func userInfo(_ entries: [UserInfoEntry]) -> String {
        entries.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: ",")
    }
}
