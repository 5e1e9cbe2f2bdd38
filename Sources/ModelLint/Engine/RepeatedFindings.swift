import ModelLintSupport
import ModelLintModel
import ModelLintRules
import ModelLintGather

/// One problem, one finding (docs/cli.md "Which findings count"): a single-version finding repeated over consecutive versions (same rule,
/// entity, property and message apart from the version's name: a suspicious default left in 56 versions) is
/// reported once, at its newest occurrence, naming the range, with every version in `versions`.
package enum RepeatedFindings {
    package static func collapse(_ diagnostics: [Diagnostic], versionOrder: [String]) -> [Diagnostic] {
        var position: [ExactName: Int] = [:]
        for (i, name) in versionOrder.enumerated() { position[ExactName(name)] = i }
        struct Key: Hashable, Sendable {
            var rule: String, entity: String?, property: String?, message: String, file: String
        }
        @Sendable func key(_ d: Diagnostic, _ version: String) -> Key {
            // The version's name (and so its folder in the path) stands for any version.
            let placeholder = "\u{0}version\u{0}"
            return Key(
                rule: d.ruleId, entity: d.entity, property: d.property,
                message: replacingVersionName(version, in: d.message, with: placeholder),
                file: replacingVersionFolder(version, in: d.file, with: placeholder))
        }
        // Each finding's key on every core (finding a version's name in a message is most of the work).
        let keys = concurrentMap(Array(diagnostics.indices)) { [position] index -> (key: Key, position: Int)? in
            let d = diagnostics[index]
            guard d.fromVersion == nil, d.affectedVersions == nil, let version = d.version,
                let p = position[ExactName(version)]
            else { return nil }
            return (key(d, version), p)
        }
        var groups: [Key: [(position: Int, index: Int)]] = [:]
        var kept: [Diagnostic] = []
        for (index, d) in diagnostics.enumerated() {
            guard let (key, p) = keys[index] else {
                kept.append(d)
                continue
            }
            groups[key, default: []].append((p, index))
        }
        for members in groups.values {
            // Runs of consecutive versions; each run is one finding.
            var run: [(position: Int, index: Int)] = []
            func flush() {
                guard let newest = run.last else { return }
                var d = diagnostics[newest.index]
                if run.count > 1 {
                    let names = run.map { versionOrder[$0.position] }
                    d.message +=
                        run.count == 2
                        ? " (in \(names[0]) and \(names[1]))" : " (in \(names[0]) to \(names[names.count - 1]))"
                    d.versions = names
                }
                kept.append(d)
                run = []
            }
            for member in members.sorted(by: { $0.position < $1.position }) {
                if let last = run.last, member.position != last.position + 1 { flush() }
                run.append(member)
            }
            flush()
        }
        return kept
    }

    /// `file` with every `/VERSION.xcdatamodel/` replaced by `/PLACEHOLDER/`, as `replacingOccurrences` replaces it.
    /// Foundation searches through a bridged string, thousands of instructions a path; an ASCII path and name (the
    /// usual ones) are compared byte for byte, which is what canonical equivalence comes to for ASCII.
    package static func replacingVersionFolder(_ version: String, in file: String, with placeholder: String) -> String {
        let folder = Array(("/" + version + ".xcdatamodel/").utf8)
        let path = Array(file.utf8)
        guard folder.allSatisfy({ $0 < 0x80 }), path.allSatisfy({ $0 < 0x80 }) else {
            return file.replacingOccurrences(of: "/" + version + ".xcdatamodel/", with: "/" + placeholder + "/")
        }
        // Left to right, each search going on after the last folder replaced, as Foundation's does.
        var result: [UInt8] = []
        var copied = 0
        while let found = ByteSearch.firstIndex(of: folder, in: path, from: copied) {
            result += path[copied..<found]
            result += ("/" + placeholder + "/").utf8
            copied = found + folder.count
        }
        guard copied > 0 else { return file }
        result += path[copied...]
        return String(decoding: result, as: UTF8.self)
    }

    /// `version` where it is a version's name in `message`: not part of a longer name, so the base version
    /// `Model` (named like its bundle) is not found inside `Model 2`, `Model.xcdatamodeld` or `ModelItem`.
    static func replacingVersionName(_ version: String, in message: String, with placeholder: String) -> String {
        guard !version.isEmpty else { return message }
        var result = ""
        var rest = message[...]
        while let range = rest.range(of: version) {
            let before = range.lowerBound == message.startIndex ? nil : message[message.index(before: range.lowerBound)]
            let after = rest[range.upperBound...]
            let joinsBefore = before.map { $0.isLetter || $0.isNumber || $0 == "_" } ?? false
            let joinsAfter: Bool = {
                guard let next = after.first else { return false }
                if next.isLetter || next.isNumber || next == "_" { return true }
                // `Model 2`, `Model.xcdatamodeld`, `Model_v2`: a longer name that starts with this one.
                let following = after.dropFirst().first
                return (next == " " || next == "." || next == "-") && (following?.isNumber ?? false)
                    || next == "." && after.hasPrefix(".xcdatamodel")
            }()
            result += rest[..<range.lowerBound]
            result += joinsBefore || joinsAfter ? String(rest[range]) : placeholder
            rest = after
        }
        return result + rest
    }
}
