import ModelLintModel

package struct RetirementWithoutInterimRule: RetirementRule {
    package init() {}

    package static let description = RuleDescription(
        id: "retirement-without-interim", category: .retirement, severity: .error,
        summary: "a retired property and its replacement (`replacedBy`) appear and disappear in the same step",
        rationale: """
            Retiring an attribute without losing its data takes two builds: an interim build that declares both the \
            old and the new attribute and copies old -> new on first launch, then a retiring build that removes the old \
            one. When the replacement appears in the same version the old one disappears, no build ever held both, and \
            the data is dropped.
            """,
        fix:
            "ship an interim version that has both attributes (and copies the values on launch), then remove the old one in the next version",
        examples: [
            RuleExample(
                versions: [
                    (
                        "Near 1",
                        .model(
                            "<entity name=\"Thing\"><attribute name=\"payload\" optional=\"YES\" attributeType=\"Binary\"><userInfo><entry key=\"modellint.retired\" value=\"\"/></userInfo></attribute></entity>"
                        )
                    ),
                    (
                        "Near 2",
                        .model(
                            "<entity name=\"Thing\">↓<attribute name=\"payloadBlob\" optional=\"YES\" attributeType=\"Binary\"><userInfo><entry key=\"modellint.replaces\" value=\"payload\"/></userInfo></attribute></entity>"
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
                            "<entity name=\"Thing\"><attribute name=\"payload\" optional=\"YES\" attributeType=\"Binary\"><userInfo><entry key=\"modellint.retired\" value=\"Near 2\"/></userInfo></attribute><attribute name=\"payloadBlob\" optional=\"YES\" attributeType=\"Binary\"><userInfo><entry key=\"modellint.replaces\" value=\"payload\"/></userInfo></attribute></entity>"
                        )
                    ),
                    (
                        "Near 3",
                        .model(
                            "<entity name=\"Thing\"><attribute name=\"payloadBlob\" optional=\"YES\" attributeType=\"Binary\"><userInfo><entry key=\"modellint.replaces\" value=\"payload\"/></userInfo></attribute></entity>"
                        )
                    ),
                ], triggers: false),
        ])

    package func check(_ versions: [VersionRef], current: Int, context: RuleContext) -> [Finding] {
        var findings: [Finding] = []
        for retirement in context.retired where retirement.replacedBy != nil {
            for (old, new) in zip(versions, versions.dropFirst()) {
                guard retirement.property(in: old.model) != nil, retirement.replacement(in: old.model) == nil,
                    retirement.property(in: new.model) == nil, let replacement = retirement.replacement(in: new.model)
                else { continue }
                findings.append(
                    Finding(
                        "\(retirement.entity).\(replacement.name) replaces \(retirement.label) in \(new.name), the same version that drops \(retirement.property): no build held both, so nothing copied the data",
                        at: replacement.location, entity: retirement.entity, property: replacement.name,
                        version: new.name))
            }
        }
        return findings
    }
}
