import ModelLintSupport
import ModelLintModel
import ModelLintDiff
import ModelLintHistory
import ModelLintRules
import ModelLintGather

/// The first pass: each rule kind handed its subjects (versions, entity neighborhoods, compared pairs, entity
/// pairs, the pairs' findings together, the bundle's steps, retirements, suppression entries, shipped records),
/// with the caches that let a repeated subject be judged once. No severity policy: that is the second pass,
/// `ResolutionFacts.resolve`.
package struct Judge: Sendable {
    package var rules: RuleSet
    package var migration: MigrationMode
    /// Whether the command line or the configuration said how the app migrates.
    package var migrationIsExplicit: Bool
    /// `--only-new`: the work tree's run offers what it judged, REF's run takes what it shares (`JudgementExchange`).
    package var exchange: JudgementExchange.Side?

    /// Everything the bundle's rules find, in report order. `facts` is read only by the pair-set rules, which
    /// judge the change findings as configured (a note where a mapping model covers the pair).
    package func judge(
        _ bundle: ModelBundle, facts: ResolutionFacts, context: RuleContext, histories: [ShippedHistory]
    ) -> BundleJudgement {
        let line = facts.line
        var judgement = BundleJudgement()
        for rule in rules.bundle {
            // About the bundle as a whole: reported against the version treated as current.
            judgement.findings += rule.check(bundle).map {
                RawFinding(rule.description, $0, .whole(version: bundle.currentVersion?.name))
            }
        }
        let judged = versionsAndSteps(of: bundle, along: line, context: context)
        for position in line.versions.indices {
            for (judge, findings) in zip(rules.versions, judged.versions[position]) {
                judgement.findings += findings.map { RawFinding(judge.description, $0, .version(position: position)) }
            }
        }
        judgement.findings += changes(along: line, judged: judged.pairs, facts: facts)
        if !migrationIsExplicit {
            let steps = zip(line.versions, line.versions.dropFirst()).map { ($0.name, $1.name) }
            for rule in rules.migrationStyle {
                judgement.findings += rule.check(
                    bundle, steps: steps, mappingModels: facts.mappingModels, stepMigrators: facts.stepMigrators
                ).map {
                    RawFinding(rule.description, $0, .whole(version: bundle.currentVersion?.name))
                }
            }
        }
        for rule in rules.mappingModel {
            for mapping in facts.unmatchedMappingModels {
                judgement.findings += rule.check(mapping, bundle: bundle, line: line, shipped: facts.shipped).map {
                    RawFinding(rule.description, $0, .whole(version: nil))
                }
            }
        }
        for rule in rules.pickedMappingModel {
            for mapping in facts.mappingModels {
                judgement.findings += rule.check(mapping, line: line).map {
                    RawFinding(rule.description, $0, .whole(version: nil))
                }
            }
        }
        for rule in rules.retirement {
            judgement.findings += rule.check(line.versions, current: line.currentPosition, context: context).map {
                RawFinding(rule.description, $0, .whole(version: nil))
            }
        }
        for rule in rules.suppression {
            judgement.suppressionFindings += rule.check(facts.suppressions.names, knownRuleIDs: rules.ids).map {
                RawFinding(rule.description, $0, .whole(version: nil))
            }
        }
        // One edit, one finding: a version a record already found edited or deleted (the lock first, then
        // --released, then --against) is not reported again by the next record.
        var reported = Set<ExactName>()
        for history in histories {
            let comparisons = ShippedVersionComparison.compare(history, with: bundle).filter {
                !reported.contains(ExactName($0.name))
            }
            reported.formUnion(comparisons.filter { $0.status != .unchanged }.map { ExactName($0.name) })
            for rule in rules.history {
                judgement.shipped += rule.check(comparisons, bundle: bundle).map {
                    RawFinding(rule.description, $0, .shipped)
                }
            }
        }
        if !context.renamed.isEmpty {
            judgement.findings.removeAll { DeclaredRenameFindings.answers($0, renamed: context.renamed) }
        }
        // A shipped-history finding may replace a finding about the bundle as a whole that it explains better
        // (its `supersedes`, by rule id; an empty identity stands for every finding of that rule).
        let superseded = Set(
            judgement.shipped.flatMap { $0.finding.supersedes.filter { $0.identity.isEmpty }.map(\.rule) })
        if !superseded.isEmpty {
            judgement.findings.removeAll { raw in
                guard superseded.contains(raw.rule.id), case .whole = raw.subject else { return false }
                return true
            }
        }
        return judgement
    }

    /// The compared pairs of a line: every step (consecutive versions), and in direct mode every older version
    /// with the current one, as positions in the line and whether they are a step.
    func comparedPairs(along line: VersionLine) -> [(Int, Int, Bool)] {
        let count = line.versions.count
        guard count > 1 else { return [] }
        let currentPosition = line.currentPosition
        var pairs: [(Int, Int, Bool)] = (0..<(count - 1)).map { ($0, $0 + 1, true) }
        if migration == .direct && currentPosition >= 2 {
            pairs += (0..<(currentPosition - 1)).map { ($0, currentPosition, false) }
        }
        return pairs
    }

    /// What the single-version rules find in each version of the line and the change rules on each compared pair,
    /// through the exchange when there is one: offered by the work tree's run; at REF, what the work tree's run
    /// offers for the versions it shares (and the steps between two of them) taken, the rest judged first.
    func versionsAndSteps(of bundle: ModelBundle, along line: VersionLine, context: RuleContext) -> (
        versions: [[[Finding]]], pairs: [PairFindings]
    ) {
        let models = line.versions.map(\.model)
        let pairs = comparedPairs(along: line)
        switch exchange {
        case nil:
            return (
                versionFindings(models, rules: rules.versions, context: context),
                changeFindings(line.versions, pairs: pairs, context: context)
            )
        case .offering(let exchange):
            let versions = versionFindings(models, rules: rules.versions, context: context)
            let results = changeFindings(line.versions, pairs: pairs, context: context)
            var offer = JudgementExchange.Offer(rules: rules.ids, context: context, versions: [:], steps: [:])
            for (version, found) in zip(line.versions, versions) { offer.versions[ExactName(version.name)] = found }
            for result in results where result.isAdjacent {
                offer.steps[JudgementExchange.Step(from: ExactName(result.from), to: ExactName(result.to))] = result
            }
            exchange.offer(offer, forBundle: bundle.path)
            return (versions, results)
        case .taking(let exchange):
            let shared = line.versions.map { bundle.workTreeVersions.contains(ExactName($0.name)) }
            let ownVersions = models.indices.filter { !shared[$0] }
            let ownPairs = pairs.indices.filter { !(pairs[$0].2 && shared[pairs[$0].0] && shared[pairs[$0].1]) }
            var versions = [[[Finding]]?](repeating: nil, count: models.count)
            var results = [PairFindings?](repeating: nil, count: pairs.count)
            func judge(versionsAt positions: [Int], pairsAt indices: [Int]) {
                guard !positions.isEmpty || !indices.isEmpty else { return }
                for (v, found) in zip(
                    positions, versionFindings(positions.map { models[$0] }, rules: rules.versions, context: context))
                {
                    versions[v] = found
                }
                for (p, found) in zip(
                    indices, changeFindings(line.versions, pairs: indices.map { pairs[$0] }, context: context))
                {
                    results[p] = found
                }
            }
            judge(versionsAt: ownVersions, pairsAt: ownPairs)
            if ownVersions.count < models.count || ownPairs.count < pairs.count,
                let offer = exchange.offer(forBundle: bundle.path), offer.rules == rules.ids, offer.context == context
            {
                var taken = (versions: 0, steps: 0)
                for v in models.indices where versions[v] == nil {
                    versions[v] = offer.versions[ExactName(line.versions[v].name)]
                    if versions[v] != nil { taken.versions += 1 }
                }
                for p in pairs.indices where results[p] == nil {
                    let (from, to, _) = pairs[p]
                    results[p] =
                        offer.steps[
                            JudgementExchange.Step(
                                from: ExactName(line.versions[from].name), to: ExactName(line.versions[to].name))]
                    if results[p] != nil { taken.steps += 1 }
                }
                exchange.record(takenVersions: taken.versions, steps: taken.steps)
            }
            // Anything the offer did not hold (none came, or another context): judged here.
            judge(
                versionsAt: models.indices.filter { versions[$0] == nil },
                pairsAt: pairs.indices.filter { results[$0] == nil })
            return (versions.map { $0! }, results.map { $0! })
        }
    }

    /// What the change rules found on the compared pairs of a line (`comparedPairs`, in that order), then what the
    /// pair-set rules find over all.
    func changes(along line: VersionLine, judged results: [PairFindings], facts: ResolutionFacts) -> [RawFinding] {
        let readable = line.versions
        guard readable.count > 1 else { return [] }
        let currentPosition = line.currentPosition

        var findings: [RawFinding] = []
        var adjacentKeys: Set<String> = []
        var coveredBy: [String: [String]] = [:]
        for pair in results where pair.isAdjacent {
            let covering = facts.mappingModel(from: pair.from, to: pair.to)
            for (k, raw) in pair.stepFindings {
                // A mapping model covers the pairs whose hashes contain the ones it records: a device skipping
                // its step is covered only when its version's do too (the direct pair's own lookup below), so a
                // problem only ever seen on covered steps still counts for direct pairs.
                if let covering {
                    if coveredBy[k]?.contains(covering.name) != true { coveredBy[k, default: []].append(covering.name) }
                } else {
                    adjacentKeys.insert(k)
                }
                findings.append(raw)
            }
        }

        // What only the older -> current pairs find, judged over every pair's findings as configured.
        var direct: [ComparedPairFindings.DirectFinding] = []
        for pair in results where !pair.isAdjacent {
            let covering = facts.mappingModel(from: pair.from, to: pair.to)
            for (rule, found) in pair.findings {
                guard let severity = facts.severity(of: rule, finding: found.finding) else { continue }
                direct.append(
                    ComparedPairFindings.DirectFinding(
                        from: pair.from, rule: rule, finding: found.finding, key: PairFindings.key(rule, found),
                        severity: covering == nil ? severity : .note,
                        mappingModel: covering?.name))
            }
        }
        let current = readable[currentPosition].name
        let compared = ComparedPairFindings(
            current: current, onUnmappedSteps: adjacentKeys, coveredBy: coveredBy, direct: direct,
            migratingDirectly: results.filter { !$0.isAdjacent }.map(\.from))
        for rule in rules.pairSets {
            findings += rule.check(compared).map {
                RawFinding(rule.description, $0.finding, .skippedVersions($0, current: current))
            }
        }
        return findings
    }

    /// What one single-version rule found in one version: about the model as a whole (everything, for a
    /// rule that is not an entity rule), and per entity (nil: the entity repeats one judged earlier).
    private struct VersionRuleFindings: Sendable {
        var modelWide: [Finding]
        var perEntity: [[Finding]?] = []
    }

    /// Per version, per rule: what the single-version rules find. Versions are independent: judged on all
    /// cores. Entity rules judge each distinct neighborhood once (each distinct entity, for a rule that reads only
    /// its entity); repeats get its findings moved to them.
    package func versionFindings(_ models: [Model], rules: [RuleSet.VersionJudge], context: RuleContext)
        -> [[[Finding]]]
    {
        let repeated = RepeatedEntities(models)
        // A rule that reads only its entity repeats wherever the entity does, whatever changed around it.
        let scopes = rules.map { judge -> RepeatedEntities.Scope in
            guard case .entities(let rule) = judge, type(of: rule).readsOnlyItsEntity else { return .neighborhood }
            return .entity
        }
        let repeatedEntities = scopes.contains(.entity) ? RepeatedEntities(models, scope: .entity) : repeated
        // Per rule, per version, per entity: where what the rule reads was first seen.
        let originsByRule = scopes.map { $0 == .entity ? repeatedEntities.origins : repeated.origins }
        let fresh = concurrentMap(Array(models.indices)) { v -> [VersionRuleFindings] in
            let model = models[v]
            return rules.indices.map { r in
                guard case .entities(let rule) = rules[r] else {
                    guard case .whole(let rule) = rules[r] else { preconditionFailure() }
                    return VersionRuleFindings(modelWide: rule.check(model, context: context))
                }
                let repeats = originsByRule[r][v]
                return VersionRuleFindings(
                    modelWide: rule.checkModel(model, context: context),
                    // Indices, not entities: no entity is copied per step.
                    perEntity: model.entities.indices.map { e in
                        repeats[e] == nil ? rule.check(model.entities[e], in: model, context: context) : nil
                    })
            }
        }
        // Which judged entities anything was found about: most repeats have nothing to move.
        let judgedWithFindings = models.indices.map { v in
            var any = [Bool](repeating: false, count: models[v].entities.count)
            for judged in fresh[v] {
                for (e, found) in judged.perEntity.enumerated() where found?.isEmpty == false { any[e] = true }
            }
            return any
        }
        return concurrentMap(Array(models.indices)) { v -> [[Finding]] in
            let model = models[v]
            return rules.indices.map { r -> [Finding] in
                let judged = fresh[v][r]
                guard case .entities(let rule) = rules[r] else { return judged.modelWide }
                let origins = originsByRule[r][v]
                var found = judged.modelWide
                for e in model.entities.indices {
                    if let own = judged.perEntity[e] {
                        found += own
                    } else if let origin = origins[e], judgedWithFindings[origin.group][origin.item],
                        let original = fresh[origin.group][r].perEntity[origin.item], !original.isEmpty
                    {
                        let originModel = models[origin.group]
                        let entity = model.entities[e]
                        found +=
                            RepeatedEntities.move(
                                original, from: originModel.entities[origin.item], in: originModel, to: entity,
                                in: model, scope: scopes[r])
                            // A finding outside the neighborhood: judged afresh.
                            ?? rule.check(entity, in: model, context: context)
                    }
                }
                return found
            }
        }
    }

    package struct PairFindings: Sendable {
        var from: String
        var to: String
        var isAdjacent: Bool
        var findings: [(rule: RuleDescription, found: ChangeFinding)]

        /// The same problem on every pair it appears in.
        static func key(_ rule: RuleDescription, _ found: ChangeFinding) -> String { rule.id + "|" + found.identity }

        /// Its findings as a step's (`check`'s consecutive versions, `store`'s hops): one another finding of the
        /// same pair replaces is marked superseded (its problem still counts as found there).
        var stepFindings: [(key: String, raw: RawFinding)] {
            let superseded = Set(findings.flatMap { $0.found.supersedes.map { "\($0.rule)|\($0.identity)" } })
            return findings.map { rule, found in
                let key = Self.key(rule, found)
                return (
                    key,
                    RawFinding(rule, found.finding, .step(from: from, to: to, superseded: superseded.contains(key)))
                )
            }
        }
    }

    /// What the change rules find on each compared pair, in rule order. On the direct pairs (older -> current),
    /// a matched entity pair that an earlier direct pair already had (same older lineage, same newer entity)
    /// gets that pair's findings from the entity pair rules: only the first direct pair a problem appears on is
    /// ever shown, the later ones only add their version to it, and they find the same.
    package func changeFindings(_ readable: [VersionRef], pairs: [(Int, Int, Bool)], context: RuleContext)
        -> [PairFindings]
    {
        let judges = rules.pairs
        let pairCache = EntityPairCache()
        // The versions whose hashes a direct pair compares below (the current one in every such pair) are hashed
        // among the diffs, newest first: alone, the current version's hashing is one core's work.
        let hashed = Set(
            pairs.filter { !$0.2 && readable[$0.0].model.hasEntityNames(of: readable[$0.1].model) }.flatMap {
                [$0.0, $0.1]
            }
        ).sorted(by: >)
        // A pair finds in the cache only what another pair of the same newer version put there: a newer version
        // compared once (every step's but the last) neither asks nor fills it.
        let comparedAsNewer = pairs.reduce(into: [Int](repeating: 0, count: readable.count)) { $0[$1.1] += 1 }
        let diffs = concurrentMap(Array(0..<(hashed.count + pairs.count))) { item -> ModelDiff? in
            guard item >= hashed.count else {
                _ = readable[hashed[item]].model.versionHashes
                return nil
            }
            let (from, to, adjacent) = pairs[item - hashed.count]
            return ModelDiff(
                from: readable[from], to: readable[to], isAdjacent: adjacent,
                cache: comparedAsNewer[to] > 1 ? pairCache : nil)
        }.compactMap { $0 }
        // The newer side is the current version in every direct pair: its entities are told apart by name.
        // A pair whose versions hash identically migrates nothing (rules may say so), so it shares with its like only.
        struct Key: Hashable {
            var oldLineage: Int
            var newEntity: Int
            var identicalHashes: Bool
        }
        let origins = EarlierOccurrence.find(
            diffs.map { diff -> [Key?] in
                let old = diff.from.model
                let new = diff.to.model
                guard !diff.isAdjacent, old.entityIndexByName.count == old.entities.count else {
                    return diff.matchedEntities.map { _ in nil }
                }
                let identical = old.hashesEqual(new)
                return diff.matchedEntities.map { pair in
                    Key(
                        oldLineage: old.keys.lineage[pair.oldIndex], newEntity: new.firstIndexOfName[pair.newIndex],
                        identicalHashes: identical)
                }
            })
        // Per pair, per rule, what it found, sparse (most rules find nothing on most entity pairs): a diff rule's
        // findings at 0; an entity pair rule's by the matched entity pair's position (none for a repeat, which
        // takes its origin's below).
        let judged = concurrentMap(Array(diffs.indices)) { p -> [[FoundAt]] in
            let diff = diffs[p]
            let versions = diff.versions
            return judges.map { judge -> [FoundAt] in
                switch judge {
                case .diff(let rule):
                    guard diff.isAdjacent || !type(of: rule).adjacentOnly else { return [] }
                    let found = rule.check(diff, context: context)
                    return found.isEmpty ? [] : [FoundAt(position: 0, findings: found)]
                case .entityPairs(let rule):
                    var found: [FoundAt] = []
                    // An unchanged pair has nothing a change rule compares (a test holds every rule to finding
                    // nothing on every unchanged pair of the fixtures and the corpus).
                    for (e, pair) in diff.matchedEntities.enumerated() where origins[p][e] == nil && !pair.isUnchanged {
                        let findings = rule.check(pair, of: versions, context: context)
                        if !findings.isEmpty { found.append(FoundAt(position: e, findings: findings)) }
                    }
                    return found
                }
            }
        }
        Teardown.keep((diffs, pairCache))
        return concurrentMap(Array(diffs.indices)) { p in
            let diff = diffs[p]
            var findings: [(RuleDescription, ChangeFinding)] = []
            for (r, judge) in judges.enumerated() {
                let own = judged[p][r]
                guard case .entityPairs = judge, origins[p].contains(where: { $0 != nil }) else {
                    for found in own { findings += found.findings.map { (judge.description, $0) } }
                    continue
                }
                // In entity pair order: each one's own findings, or its origin's.
                var next = 0
                for (e, origin) in origins[p].enumerated() {
                    if let origin {
                        let theirs = judged[origin.group][r]
                        if let found = FoundAt.findings(in: theirs, at: origin.item) {
                            findings += found.map { (judge.description, $0) }
                        }
                    } else if next < own.count, own[next].position == e {
                        findings += own[next].findings.map { (judge.description, $0) }
                        next += 1
                    }
                }
            }
            return PairFindings(from: diff.from.name, to: diff.to.name, isAdjacent: diff.isAdjacent, findings: findings)
        }
    }
}

/// What one rule found at one position of a pair (a matched entity pair's, or 0 for a diff rule), when it found
/// something: judged results are kept sparse.
struct FoundAt: Sendable {
    var position: Int
    var findings: [ChangeFinding]

    /// The findings at `position` in a list sorted by position; nil when there are none.
    static func findings(in list: [FoundAt], at position: Int) -> [ChangeFinding]? {
        var low = 0
        var high = list.count
        while low < high {
            let middle = (low + high) / 2
            if list[middle].position < position { low = middle + 1 } else { high = middle }
        }
        return low < list.count && list[low].position == position ? list[low].findings : nil
    }
}
