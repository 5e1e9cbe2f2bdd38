import Foundation

/// libFuzzer entry point: every reader of untrusted bytes, and everything downstream of the model parser.
/// Built by Fuzz/run together with the ModelLint sources (one module), never part of the package.
@_cdecl("LLVMFuzzerTestOneInput")
public func modelLintFuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)

    if case .model(let model) = ContentsParser.parse(data: data, path: "fuzz/contents") {
        let context = RuleContext(cloudKitOverride: nil, retired: [], migration: .direct)
        let version = VersionRef(name: "Fuzz 1", contentsPath: "fuzz/contents", model: model)
        for case let rule as any VersionRule in RuleRegistry.all { _ = rule.check(model, context: context) }
        let diff = ModelDiff(from: version, to: VersionRef(name: "Fuzz 2", contentsPath: "fuzz/contents", model: model), isAdjacent: true)
        for case let rule as any ChangeRule in RuleRegistry.all { _ = rule.check(diff, context: context) }
        _ = ChangeClassifier.entries(of: diff)
        _ = VersionDigest(model: model)
    }
    _ = CurrentVersionReader.parse(data)
    if let json = try? JSONValue.parse(data) {
        _ = try? LockFile.parse(json, file: "fuzz/modellint.lock")
        _ = try? Configuration.parse(json, baseDirectory: "/nonexistent", knownRuleIDs: RuleRegistry.ids, file: "fuzz/.modellint.json")
        _ = json.serialized()
    }
    return 0
}
