import ModelLintSupport
import ModelLintModel

package struct RetirementSkipsInterimRule: RetirementRule {
    package init() {}

    package static let description = RuleDescription(
        id: "retirement-skips-interim", category: .retirement, severity: .note,
        summary:
            "in `direct` mode: devices on versions before the interim version lose the retired data when they update straight to the current one",
        rationale: """
            The two-build retirement is lossless only in order: old -> interim (copies the data) -> retiring. A device \
            that skips the interim build migrates straight to a model without the old attribute, and its data is \
            dropped. Whether that matters is a product decision; this note makes it explicit.
            """,
        fix: "state the required upgrade order, or keep the interim attribute one release longer",
        examples: [
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
                    (
                        "Near 3",
                        .model(
                            "↓<entity name=\"Thing\"><attribute name=\"payloadBlob\" optional=\"YES\" attributeType=\"Binary\"/></entity>"
                        )
                    ),
                ], triggers: true),
            RuleExample(
                versions: [
                    (
                        "Near 2",
                        .model(
                            "<entity name=\"Thing\"><attribute name=\"payload\" optional=\"YES\" attributeType=\"Binary\"><userInfo><entry key=\"modellint.retired\" value=\"Near 2\"/></userInfo></attribute><attribute name=\"payloadBlob\" optional=\"YES\" attributeType=\"Binary\"/></entity>"
                        )
                    ),
                    (
                        "Near 3",
                        .model(
                            "<entity name=\"Thing\"><attribute name=\"payloadBlob\" optional=\"YES\" attributeType=\"Binary\"/></entity>"
                        )
                    ),
                ], triggers: false),
        ])

    package func check(_ versions: [VersionRef], current: Int, context: RuleContext) -> [Finding] {
        guard context.migration == .direct, versions.indices.contains(current) else { return [] }
        let now = versions[current]
        return context.retired.compactMap { retirement in
            guard let interim = retirement.interimVersion,
                let position = versions.firstIndex(where: { $0.name == interim }),
                position < current, retirement.property(in: now.model) == nil,
                let entity = now.model.entity(named: retirement.entity)
            else { return nil }
            let older = versions[..<position].filter { retirement.property(in: $0.model) != nil }.map(\.name)
            guard !older.isEmpty else { return nil }
            return Finding(
                "\(retirement.label) was retired through the interim version \(interim): devices on \(ReportText.list(older)) that update straight to \(now.name) skip the copy and lose its data",
                at: entity.location, entity: entity.name, version: now.name)
        }
    }
}
