import ModelLintModel

package struct RetiredAttributePresentRule: RetirementRule {
    package init() {}

    package static let description = RuleDescription(
        id: "retired-attribute-present", category: .retirement, severity: .error,
        summary: "a property declared retired is still in the current model",
        rationale: """
            \"Legacy, read-only\" is not a retirement: a property left in the model is still in every store, and \
            anything that walks the entity (mirroring, export, encoding, a generic serialiser) still sees it. A \
            retirement is declared in .modellint.json (`retired`, with an optional `interimVersion` during which the \
            property may stay so the interim build can copy it) or with the userInfo key `modellint.retired` on the \
            property (its value may name the interim version).
            """,
        fix: "delete the property from the model once the interim build that copies its data has shipped",
        examples: [
            RuleExample(
                versions: [
                    (
                        "Near 1",
                        .model(
                            "<entity name=\"Thing\"><attribute name=\"payload\" optional=\"YES\" attributeType=\"Binary\"><userInfo><entry key=\"modellint.retired\" value=\"Near 1\"/></userInfo></attribute><attribute name=\"payloadBlob\" optional=\"YES\" attributeType=\"Binary\"/></entity>"
                        )
                    ),
                    (
                        "Near 2",
                        .model(
                            "<entity name=\"Thing\">↓<attribute name=\"payload\" optional=\"YES\" attributeType=\"Binary\"><userInfo><entry key=\"modellint.retired\" value=\"Near 1\"/></userInfo></attribute><attribute name=\"payloadBlob\" optional=\"YES\" attributeType=\"Binary\"/></entity>"
                        )
                    ),
                ], triggers: true),
            RuleExample(
                versions: [
                    (
                        "Near 1",
                        .model(
                            "<entity name=\"Thing\"><attribute name=\"payload\" optional=\"YES\" attributeType=\"Binary\"/></entity>"
                        )
                    ),
                    (
                        "Near 2",
                        .model(
                            "<entity name=\"Thing\"><attribute name=\"payload\" optional=\"YES\" attributeType=\"Binary\"><userInfo><entry key=\"modellint.retired\" value=\"Near 2\"/></userInfo></attribute><attribute name=\"payloadBlob\" optional=\"YES\" attributeType=\"Binary\"/></entity>"
                        )
                    ),
                ], triggers: false),
        ])

    package func check(_ versions: [VersionRef], current: Int, context: RuleContext) -> [Finding] {
        guard versions.indices.contains(current) else { return [] }
        let now = versions[current]
        return context.retired.compactMap { retirement in
            if let interim = retirement.interimVersion,
                let position = versions.firstIndex(where: { $0.name == interim }), current <= position
            {
                return nil
            }
            guard let (entity, property) = retirement.property(in: now.model) else { return nil }
            let when = retirement.interimVersion.map { "its interim version \($0) is behind, " } ?? ""
            return Finding(
                "\(retirement.label) is retired but still in \(now.name): \(when)it must be deleted; while it is in the model every store keeps it and everything that walks \(entity.name) still sees it",
                at: property.location, entity: entity.name, property: property.name, version: now.name)
        }
    }
}
