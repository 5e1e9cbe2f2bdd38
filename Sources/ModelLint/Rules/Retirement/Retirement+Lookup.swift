import ModelLintSupport
import ModelLintModel

extension Retirement {
    package var label: String { "\(entity).\(property)" }

    /// The property in a model, looked up by the retired names.
    package func property(in model: Model) -> (Entity, Property)? {
        guard let entity = model.entity(named: self.entity),
            let property = entity.properties.first(where: { $0.name == self.property })
        else { return nil }
        return (entity, property)
    }

    package func replacement(in model: Model) -> Property? {
        guard let replacedBy, let entity = model.entity(named: self.entity) else { return nil }
        return model.effectiveProperty(named: replacedBy, in: entity)
    }

    /// The userInfo key that declares a retirement in the model itself; its value may name the interim version.
    package static let userInfoKey = "modellint.retired"

    /// The userInfo key on a replacement naming the property it replaces.
    package static let replacesKey = "modellint.replaces"

    /// Retirements declared in the model itself, in any version, each once: `modellint.retired` on the retired
    /// property, `modellint.replaces` on its replacement.
    package static func declared(in versions: [VersionRef]) -> [Retirement] {
        var found: [Retirement] = []
        let names = Set(versions.map(\.name))
        func index(_ entity: String, _ property: String) -> Int {
            if let i = found.firstIndex(where: { $0.entity == entity && $0.property == property }) { return i }
            found.append(Retirement(entity: entity, property: property, replacedBy: nil, interimVersion: nil))
            return found.count - 1
        }
        let sites = concurrentMap(versions) { $0.model.userInfoSites }
        for (version, sites) in zip(versions, sites) {
            for site in sites {
                guard let p = site.property else { continue }
                let entity = version.model.entities[site.entity]
                let property = entity.properties[p]
                for entry in property.userInfo {
                    if entry.key == userInfoKey {
                        let i = index(entity.name, property.name)
                        if names.contains(entry.value) { found[i].interimVersion = entry.value }
                    } else if entry.key == replacesKey, !entry.value.isEmpty {
                        found[index(entity.name, entry.value)].replacedBy = property.name
                    }
                }
            }
        }
        return found
    }
}
