import ModelLintSupport
import ModelLintModel

/// Which versions a lock file records the work tree still has exactly as recorded, found while the app is gathered
/// (on every core, each entity the versions share fingerprinted once) so the engine compares only the others, as
/// git's index lets it skip versions byte for byte a revision's. A version whose `contents` file is unchanged since
/// an earlier run found it matching (same identity, as the other caches define it) costs a `stat`: the entry keeps,
/// per file, the digest of the record the model had (`summary`), never a verdict, so a lock file edited since still
/// gets compared. A format-1 record is left to the engine.
package enum LockedVersionCheck {
    /// Names of the locked versions whose model as it is now has exactly the recorded digests.
    /// `absolutePath`: the bundle's folder. `cache`: nil when the bundle was not read from its files (a pre-commit
    /// run reads the index), since a file's identity then says nothing about what was read.
    package static func unchanged(
        _ history: ShippedHistory, workTree: ModelBundle, absolutePath: String, cache: ResultCache?
    ) -> Set<ExactName> {
        struct Candidate: Sendable {
            var name: String
            var file: String
            var model: Model
            var recorded: String
            var identity: [Double]?
        }
        var candidates: [Candidate] = []
        for shipped in history.versions where !shipped.digest.isLegacy {
            guard let now = workTree.versions.first(where: { $0.name.isExactly(shipped.name) }),
                let model = now.model
            else { continue }
            let file = absolutePath + "/" + now.name + ".xcdatamodel/contents"
            candidates.append(
                Candidate(
                    name: shipped.name, file: file, model: model, recorded: summary(shipped.digest),
                    identity: cache == nil ? nil : ResultCache.identity(of: file)))
        }
        guard !candidates.isEmpty else { return [] }
        let key = "lock-digests\u{1F}" + absolutePath
        let known = cache.map { knownSummaries($0.records(forKey: key, kind: kind) ?? []) } ?? [:]
        let memo = FingerprintMemo()
        let versions = candidates
        // Chunks of 8: a version's digest is about a millisecond, a task's hand-off more than a lock.
        let chunks = stride(from: 0, to: candidates.count, by: 8).map { $0..<min($0 + 8, candidates.count) }
        let found = concurrentMap(chunks) { chunk in
            chunk.map { index -> (summary: String, computed: Bool) in
                let candidate = versions[index]
                if let identity = candidate.identity, let entry = known[candidate.file], entry.identity == identity {
                    return (entry.summary, false)
                }
                return (summary(VersionDigest(model: candidate.model, memo: memo)), true)
            }
        }.flatMap { $0 }
        if let cache, found.contains(where: \.computed) {
            let records = zip(candidates, found).compactMap { candidate, result -> String? in
                guard let identity = candidate.identity, ResultCache.isSettled(identity) else { return nil }
                return [candidate.file, identity.map { "\($0)" }.joined(separator: ","), result.summary]
                    .joined(separator: "\t")
            }
            cache.store(records: records, forKey: key, kind: kind)
        }
        return Set(zip(candidates, found).filter { $0.0.recorded == $0.1.summary }.map { ExactName($0.0.name) })
    }

    static let kind = "lock-digests"

    /// One digest of everything a format-2 record holds, each part length-prefixed so no two records share it.
    /// Made for every locked version on every run: bytes appended, no string built.
    package static func summary(_ digest: VersionDigest) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64 * (digest.entityContent.count + 2))
        func part(_ value: String) {
            var length = UInt32(truncatingIfNeeded: value.utf8.count).bigEndian
            withUnsafeBytes(of: &length) { bytes.append(contentsOf: $0) }
            bytes.append(contentsOf: value.utf8)
        }
        part(digest.checksum ?? "")
        part(digest.content)
        let hashes = digest.entityHashes ?? [:]
        for name in hashes.keys.sorted() {
            part(name)
            part(hashes[name]!)
        }
        part("|")
        for name in digest.entityContent.keys.sorted() {
            part(name)
            part(digest.entityContent[name]!)
        }
        return Hex.encode(SHA256.digest(bytes))
    }

    /// The cache entry's records, `file \t identity \t summary`; a record not as written is skipped.
    static func knownSummaries(_ records: [ArraySlice<UInt8>]) -> [String: (identity: [Double], summary: String)] {
        var known: [String: (identity: [Double], summary: String)] = [:]
        for record in records {
            let fields = String(decoding: record, as: UTF8.self).split(
                separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 3, fields[2].utf8.count == 64 else { continue }
            let identity = fields[1].split(separator: ",").compactMap { Double($0) }
            guard identity.count == fields[1].split(separator: ",").count, !identity.isEmpty else { continue }
            known[String(fields[0])] = (identity, String(fields[2]))
        }
        return known
    }
}
