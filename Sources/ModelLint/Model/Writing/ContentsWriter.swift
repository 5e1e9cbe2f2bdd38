import ModelLintSupport

/// A model written as Xcode writes a version's `contents`: entities and their properties by name, one element a
/// line, the attributes Xcode writes in its order. What the model graph does not keep (layout, tooling versions)
/// is written as a fresh model of Xcode's would have it.
package enum ContentsWriter {
    package static func contents(of model: Model) -> String {
        var out = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="1" \
            systemVersion="1" minimumToolsVersion="Automatic" sourceLanguage="Swift">

            """
        for entity in model.entities.sorted(by: { $0.name < $1.name }) {
            var pairs: [(String, String?)] = [
                ("name", entity.name), ("representedClassName", entity.representedClassName),
                ("parentEntity", entity.parentEntity), ("isAbstract", entity.isAbstract ? "YES" : nil),
                ("elementID", entity.elementID), ("versionHashModifier", entity.versionHashModifier),
            ]
            pairs.append(("syncable", "YES"))
            out += "    <entity\(attributes(pairs))>\n"
            for property in entity.properties.sorted(by: { $0.name < $1.name }) {
                switch property {
                case .attribute(let a): out += "        <attribute\(attributes(attributePairs(a)))/>\n"
                case .relationship(let r): out += "        <relationship\(attributes(relationshipPairs(r)))/>\n"
                }
            }
            if !entity.uniquenessConstraints.isEmpty {
                out += "        <uniquenessConstraints>\n"
                for constraint in entity.uniquenessConstraints {
                    out += "            <uniquenessConstraint>\n"
                    for name in constraint.properties {
                        out += "                <constraint value=\"\(XMLEscape.escape(name))\"/>\n"
                    }
                    out += "            </uniquenessConstraint>\n"
                }
                out += "        </uniquenessConstraints>\n"
            }
            out += "    </entity>\n"
        }
        return out + "</model>\n"
    }

    static func attributePairs(_ a: Attribute) -> [(String, String?)] {
        let scalar: String? =
            a.type.isNumericOrBoolean ? "YES" : (a.type == .date || a.type == .uuid || a.type == .uri ? "NO" : nil)
        return [
            ("name", a.name), ("optional", a.isOptional ? "YES" : nil), ("transient", a.isTransient ? "YES" : nil),
            ("attributeType", a.type.xmlValue), ("defaultValueString", a.defaultValueString),
            ("allowsExternalBinaryDataStorage", a.allowsExternalBinaryDataStorage ? "YES" : nil),
            ("preserveAfterDeletion", a.preserveAfterDeletion ? "YES" : nil),
            ("allowsCloudEncryption", a.allowsCloudEncryption ? "YES" : nil),
            ("spotlightIndexingEnabled", a.spotlightIndexingEnabled ? "YES" : nil),
            ("valueTransformerName", a.valueTransformerName), ("elementID", a.elementID),
            ("versionHashModifier", a.versionHashModifier), ("usesScalarValueType", scalar),
        ]
    }

    static func relationshipPairs(_ r: Relationship) -> [(String, String?)] {
        [
            ("name", r.name), ("optional", r.isOptional ? "YES" : nil), ("transient", r.isTransient ? "YES" : nil),
            ("toMany", r.isToMany ? "YES" : nil), ("ordered", r.isOrdered ? "YES" : nil),
            ("minCount", r.minCount.flatMap { $0 == 0 ? nil : String($0) }),
            ("maxCount", r.maxCount.flatMap { $0 == 0 ? nil : String($0) }),
            ("deletionRule", r.deleteRule.xmlValue), ("destinationEntity", r.destinationEntity),
            ("inverseName", r.inverseName), ("inverseEntity", r.inverseEntity), ("elementID", r.elementID),
            ("versionHashModifier", r.versionHashModifier),
        ]
    }

    static func attributes(_ pairs: [(String, String?)]) -> String {
        pairs.compactMap { key, value in value.map { " \(key)=\"\(XMLEscape.escape($0))\"" } }.joined()
    }

}
