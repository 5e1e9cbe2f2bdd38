import ModelLintSupport

/// Canonical, order-insensitive descriptions of a model, for "did it change?" questions that must
/// ignore how Xcode happened to write the file.
package enum Fingerprint {
    /// Format 1's schema digest (lock files written before Core Data's hashes were known): SHA-256 of every
    /// entity's schema description, sorted by entity name, one per line. A description embeds its parent's whole
    /// description, so it grows with the depth of the hierarchy; it is streamed into the hash, never built, and
    /// only computed to verify a format-1 lock file.
    package static func legacySchemaDigest(_ model: Model) -> String {
        var hasher = SHA256()
        var names: [String] = []
        var seen = Set<String>()
        for entity in model.entities where seen.insert(entity.name).inserted { names.append(entity.name) }
        // Each entity's description without its parent's, worked out once; streamed with its ancestors' inside.
        var parts: [Int: (head: String, tail: String)] = [:]
        func part(_ i: Int) -> (head: String, tail: String) {
            if let known = parts[i] { return known }
            let entity = model.entities[i]
            let head = [
                "name=\(entity.name)", "abstract=\(entity.isAbstract)", "vhm=\(entity.versionHashModifier ?? "")",
            ].joined(separator: "|")
            let properties = model.effectiveProperties(of: entity).map(\.property).filter { !$0.isTransient }
            let tail =
                "properties=[" + properties.map(propertyHashInput).sorted().joined(separator: ";") + "]"
                + "|unique=["
                + entity.uniquenessConstraints.map { $0.properties.sorted().joined(separator: ",") }.sorted().joined(
                    separator: ";") + "]"
            parts[i] = (head, tail)
            return (head, tail)
        }
        func stream(_ i: Int) {
            let entity = model.entities[i]
            let (head, tail) = part(i)
            hasher.update(head.utf8)
            if let parent = model.hierarchy.parent[i], !model.hierarchy.reachesCycle[i] {
                hasher.update("|parent=(".utf8)
                stream(parent)
                hasher.update(")".utf8)
            } else if let parent = entity.parentEntity {
                hasher.update("|parent=\(parent)".utf8)
            }
            hasher.update("|".utf8)
            hasher.update(tail.utf8)
        }
        for (n, name) in names.sorted().enumerated() {
            if n > 0 { hasher.update("\n".utf8) }
            stream(model.entityIndexByName[name]!)
        }
        return "sha256:" + Hex.encode(hasher.finalize())
    }

    package static func propertyHashInput(_ property: Property) -> String {
        switch property {
        case .attribute(let a):
            return [
                "A", a.name, "\(a.isOptional)", "\(a.isTransient)", a.versionHashModifier ?? "", a.type.xmlValue,
                "\(a.allowsExternalBinaryDataStorage)", "\(a.preserveAfterDeletion)",
                a.isDerived ? (a.derivationExpression ?? "") : "",
            ]
            .joined(separator: ",")
        case .relationship(let r):
            return [
                "R", r.name, "\(r.isOptional)", "\(r.isTransient)", r.versionHashModifier ?? "",
                r.destinationEntity ?? "",
                r.inverseName ?? "", "\(r.minCount ?? 0)", "\(r.isToMany ? (r.maxCount ?? 0) : 1)", "\(r.isOrdered)",
            ]
            .joined(separator: ",")
        }
    }

    /// Everything in the model except tooling metadata (tools and system versions, the diagram layout,
    /// element and attribute order, `syncable`).
    /// `formatOne`: the content as lock format 1 defined it, to verify old lock files. It counted userInfo entries
    /// of modellint's own (`modellint:disable`, `modellint.retired`, `modellint.replaces`), which from format 2 on
    /// are tooling metadata (silencing a finding in a shipped version is not an edit of it), and it did not read
    /// the `indexed` flag of relationships.
    package static func content(_ model: Model, formatOne: Bool = false, memo: FingerprintMemo? = nil) -> String {
        var lines: [String] = [
            "cloudKit=\(model.usedWithCloudKit)", "swiftData=\(model.header["usedWithSwiftData"] ?? "")",
            "versionIdentifier=\(model.header["userDefinedModelVersionIdentifier"] ?? "")",
        ]
        for entity in model.entities {
            lines.append(
                memo?.entityContent(entity, formatOne: formatOne).text ?? entityContent(entity, formatOne: formatOne))
        }
        for configuration in model.configurations {
            lines.append(
                "configuration|\(configuration.name)|\(configuration.usedWithCloudKit)|"
                    + configuration.members.map(\.entity).sorted().joined(separator: ","))
        }
        for request in model.fetchRequests {
            lines.append("fetchRequest|\(request.name)|\(request.entity ?? "")|\(request.predicate ?? "")")
        }
        lines.append(contentsOf: model.composites.map { "composite|\($0)" })
        return lines.sorted().joined(separator: "\n")
    }

    /// One entity's content: the entity line, then its properties, each order-insensitive.
    package static func entityContent(_ entity: Entity, formatOne: Bool = false) -> String {
        func userInfo(_ entries: [UserInfoEntry]) -> String { Fingerprint.userInfo(entries, formatOne: formatOne) }
        func propertyContent(_ property: Property) -> String {
            Fingerprint.propertyContent(property, formatOne: formatOne)
        }
        var e = [
            "entity", entity.name, entity.representedClassName ?? "", entity.parentEntity ?? "", "\(entity.isAbstract)",
            entity.elementID ?? "", entity.renamingIdentifierAttribute ?? "", entity.versionHashModifier ?? "",
            entity.codeGenerationType ?? "",
        ]
        e.append("userInfo=" + userInfo(entity.userInfo))
        e.append(
            "unique="
                + entity.uniquenessConstraints.map { $0.properties.sorted().joined(separator: ",") }.sorted().joined(
                    separator: ";"))
        e.append("indexes=" + entity.indexSignature.sorted().joined(separator: ";"))
        var lines = [e.joined(separator: "|")]
        lines += entity.properties.map { "  \(entity.name)." + propertyContent($0) }.sorted()
        lines += entity.fetchedProperties.map {
            "  \(entity.name).fetched|\($0.name)|\($0.isOptional)|\($0.fetchRequest?.entity ?? "")|\($0.fetchRequest?.predicate ?? "")|"
                + userInfo($0.userInfo)
        }.sorted()
        return lines.joined(separator: "\n")
    }

    package static func propertyContent(_ property: Property, formatOne: Bool) -> String {
        func userInfo(_ entries: [UserInfoEntry]) -> String { Fingerprint.userInfo(entries, formatOne: formatOne) }
        switch property {
        case .attribute(let a):
            return [
                "attribute", a.name, a.type.xmlValue, "\(a.isOptional)", "\(a.isTransient)",
                // Not an evaluated default (SwiftData's `= Data()`): lock files recorded schemas before it was read,
                // and their digests must still verify.
                a.defaultValueString ?? "\u{0}",
                a.defaultDateTimeInterval ?? "", a.minValueString ?? "", a.maxValueString ?? "",
                a.regularExpressionString ?? "",
                "\(a.usesScalarValueType.map(String.init(describing:)) ?? "")",
                TransformerName.normalized(a.valueTransformerName),
                a.customClassName ?? "", "\(a.allowsExternalBinaryDataStorage)", "\(a.preserveAfterDeletion)",
                "\(a.allowsCloudEncryption)",
                "\(a.spotlightIndexingEnabled)", "\(a.isIndexed)", "\(a.isDerived)", a.derivationExpression ?? "",
                a.elementID ?? "",
                a.renamingIdentifierAttribute ?? "", a.versionHashModifier ?? "", a.compositeName ?? "",
                userInfo(a.userInfo),
            ]
            .joined(separator: "|")
        case .relationship(let r):
            return [
                "relationship", r.name, "\(r.isOptional)", "\(r.isTransient)", "\(r.isToMany)", "\(r.isOrdered)",
                "\(r.minCount ?? 0)",
                "\(r.maxCount ?? 0)", r.deleteRule.xmlValue, r.destinationEntity ?? "", r.inverseName ?? "",
                r.inverseEntity ?? "",
                r.elementID ?? "", r.renamingIdentifierAttribute ?? "", r.versionHashModifier ?? "",
                userInfo(r.userInfo),
            ]
            .joined(separator: "|")
                // Format 1 did not read `indexed` on relationships: its content leaves it out.
                + (formatOne || !r.isIndexed ? "" : "|indexed")
        }
    }

    package static func userInfo(_ entries: [UserInfoEntry], formatOne: Bool) -> String {
        entries.filter { formatOne || !$0.key.hasPrefix("modellint") }.map { "\($0.key)=\($0.value)" }.sorted().joined(
            separator: ",")
    }
}

/// The fingerprints of entities already made in a run, by the boxes their fields share: a bundle's versions repeat
/// most of each other, and a repeated entity or property shares its boxes (`SharedFields`). A box never changes,
/// and the memo holds every box it keys on, so an identity is never reused for another box while it is in use.
package final class FingerprintMemo: Sendable {
    /// An entity's fingerprint and the first 16 hex digits of its SHA-256 (a lock file's `entityContent`).
    package struct EntityFingerprint: Sendable {
        package var text: String
        package var digest: String
    }

    private struct Key: Hashable {
        var boxes: [ObjectIdentifier]
        var formatOne: Bool
    }

    private struct State: @unchecked Sendable {
        // Unchecked: the boxes are immutable (`SharedFields` holds a `let`), kept only to pin their identities.
        var entities: [Key: EntityFingerprint] = [:]
        var held: [AnyObject] = []
    }

    private let state = Locked(State())

    package init() {}

    package func entityContent(_ entity: Entity, formatOne: Bool) -> EntityFingerprint {
        var boxes: [AnyObject] = [entity.fields]
        boxes.reserveCapacity(entity.properties.count + 1)
        for property in entity.properties {
            switch property {
            case .attribute(let a): boxes.append(a.fields)
            case .relationship(let r): boxes.append(r.fields)
            }
        }
        let key = Key(boxes: boxes.map(ObjectIdentifier.init), formatOne: formatOne)
        if let known = state.withLock({ $0.entities[key] }) { return known }
        let text = Fingerprint.entityContent(entity, formatOne: formatOne)
        let made = EntityFingerprint(text: text, digest: String(SHA256.hex(text).prefix(16)))
        state.withLock {
            if $0.entities.updateValue(made, forKey: key) == nil { $0.held.append(contentsOf: boxes) }
        }
        return made
    }
}
