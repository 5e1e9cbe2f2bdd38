import ModelLintSupport
import ModelLintModel
import ModelLintRules
import ModelLintGather

/// In-model suppression that survives Xcode: a User Info entry `modellint:disable` on an entity, attribute or
/// relationship, whose value lists rule ids (comma-separated) or `all`. It silences those rules for that
/// element (an entity's entry also covers its properties) in the version that declares it and every later one.
package struct Suppressions: Sendable {
    package static let userInfoKey = "modellint:disable"

    package struct Entry: Sendable {
        package var entity: String
        package var property: String?
        package var rules: Set<String>
        package var all: Bool
        /// Position, in version order, of the first version that declares it.
        package var since: Int

        package init(entity: String, property: String? = nil, rules: Set<String>, all: Bool, since: Int) {
            self.entity = entity
            self.property = property
            self.rules = rules
            self.all = all
            self.since = since
        }
    }

    package var entries: [Entry] = []
    /// Positions of version names, to compare a finding's version with a suppression's.
    package var positions: [String: Int] = [:]
    /// Every rule id the entries name (not `all`), for the suppression rules to judge.
    package var names: [SuppressionName] = []

    package init(versions: [VersionRef]) {
        // Found on all cores; recorded in version order (an entry keeps the first version that has it).
        let sites = concurrentMap(versions) { $0.model.userInfoSites }
        for (position, version) in versions.enumerated() {
            positions[version.name] = position
            let entities = version.model.entities
            for site in sites[position] {
                let entity = entities[site.entity]
                if let p = site.property {
                    let property = entity.properties[p]
                    record(
                        property.userInfo, entity: entity.name, property: property.name,
                        location: property.location, position: position, version: version.name)
                } else {
                    record(
                        entity.userInfo, entity: entity.name, property: nil, location: entity.location,
                        position: position, version: version.name)
                }
            }
        }
    }

    private mutating func record(
        _ userInfo: [UserInfoEntry], entity: String, property: String?, location: SourceLocation, position: Int,
        version: String
    ) {
        for entry in userInfo where entry.key == Self.userInfoKey {
            let ids = entry.value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
                !$0.isEmpty
            }
            let all = ids.contains("all")
            for id in ids where id != "all" {
                names.append(
                    SuppressionName(version: version, entity: entity, property: property, id: id, location: location))
            }
            if let i = entries.firstIndex(where: {
                $0.entity == entity && $0.property == property && $0.rules == Set(ids) && $0.all == all
            }) {
                entries[i].since = min(entries[i].since, position)
            } else {
                entries.append(Entry(entity: entity, property: property, rules: Set(ids), all: all, since: position))
            }
        }
    }

    package func suppresses(_ d: Diagnostic) -> Bool {
        guard let entity = d.entity, let version = d.version, let position = positions[version] else { return false }
        return entries.contains { entry in
            entry.entity == entity && (entry.property == nil || entry.property == d.property) && entry.since <= position
                && (entry.all || entry.rules.contains(d.ruleId)
                    || (d.underlyingRuleId.map(entry.rules.contains) ?? false))
        }
    }
}
