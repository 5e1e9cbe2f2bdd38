import ModelLintSupport
import ModelLintModel
import ModelLintRules

/// A mechanical repair of one rule's findings: what `fix` writes, and only where the intent is not a guess.
/// Each repair is a small type in its own file, listed in `Repairs.all`.
package protocol Repair: Sendable {
    /// The rule whose findings it repairs.
    static var ruleID: String { get }
    /// What `explain` says about it, in one sentence.
    static var summary: String { get }
    /// Repairs `diagnostic` into `plan`'s files, or says in `plan` why a person must.
    func repair(_ diagnostic: Diagnostic, in subject: RepairSubject, plan: inout RepairPlan)
}

/// Every repair `fix` knows, by the rule it repairs.
package enum Repairs {
    package static let all: [any Repair] = [
        SuspiciousDefaultRepair(), RenamingIdentifierRepair(), DeclaredRenameRepair(), ShippedVersionEditedRepair(),
        ShippedVersionEditedRepair.AfterSuperseded(),
    ]

    package static func repair(for ruleID: String) -> (any Repair)? {
        all.first { type(of: $0).ruleID == ruleID }
    }

    /// The sentence `explain` prints about `fix` for a rule.
    package static func explanation(for ruleID: String) -> String {
        if let repair = repair(for: ruleID) { return "modellint fix repairs it: " + type(of: repair).summary }
        return "modellint fix does not repair it: the safe change needs a person's decision."
    }
}

/// One bundle as a repair sees it: its versions as read and which of them shipped.
package struct RepairSubject: Sendable {
    package var bundle: ModelBundle
    /// As `check` decides it: the lock file's, `--released`'s or `--against`'s versions; with none of those,
    /// every version before the current one.
    package var shipped: Set<ExactName>
    /// A lock file, `--released` or `--against` says what shipped (else every version before the current one is
    /// taken as shipped, and the current one as not: a guess a value-changing repair does not act on).
    package var hasShippedRecord = false
    /// The renames the configuration declares for this bundle.
    package var renamed: [DeclaredRename] = []

    /// A shipped version's `contents` as it shipped, read from history (git), or why it cannot be.
    package var shippedContents: @Sendable (String) -> Result<ShippedContents, RepairRefusal>

    package init(
        bundle: ModelBundle, shipped: Set<ExactName>,
        shippedContents: @escaping @Sendable (String) -> Result<ShippedContents, RepairRefusal> = { _ in
            .failure(RepairRefusal("no git history to restore it from"))
        }
    ) {
        self.bundle = bundle
        self.shipped = shipped
        self.shippedContents = shippedContents
    }

    package func isShipped(_ version: String) -> Bool { shipped.contains(ExactName(version)) }

    package func version(named name: String) -> ModelVersion? {
        bundle.versions.first { $0.name.isExactly(name) }
    }

    /// Whether a declared rename's property is a relationship (in the renaming version).
    package func isRelationship(_ rename: DeclaredRename) -> Bool {
        guard let property = rename.property,
            let model = version(named: rename.version)?.model,
            case .relationship? = model.entity(named: rename.entity)?.properties.first(where: { $0.name == property })
        else { return false }
        return true
    }

    /// The readable version before `name` in version order.
    package func predecessor(of name: String) -> ModelVersion? {
        guard let index = bundle.versions.firstIndex(where: { $0.name.isExactly(name) }) else { return nil }
        return bundle.versions[..<index].last { $0.model != nil }
    }
}

/// A shipped version's `contents` as it shipped, and the revision it was read from (`release v1.0 (3f2a1c9)`).
package struct ShippedContents: Sendable {
    package var bytes: [UInt8]
    package var revision: String

    package init(bytes: [UInt8], revision: String) {
        self.bytes = bytes
        self.revision = revision
    }
}

/// Why a repair is left to a person.
package struct RepairRefusal: Error, Equatable, Sendable {
    package var reason: String
    package init(_ reason: String) { self.reason = reason }
}

/// What a run of `fix` will do: the files it changes, and per finding, what it did or why it did not.
package struct RepairPlan: Sendable {
    package struct Outcome: Sendable {
        package var diagnostic: Diagnostic
        package var repaired: Bool
        /// What was written, or why a person must do it.
        package var text: String
    }

    /// A version `fix` adds to a bundle: its folder and `contents` (the pointer is a file edit of its own).
    package struct NewVersion: Sendable {
        /// The bundle as displayed.
        package var bundlePath: String
        package var name: String
        package var contents: [UInt8]

        package var contentsPath: String { bundlePath + "/" + name + ".xcdatamodel/contents" }
    }

    /// By display path, in the order first touched.
    package private(set) var files: [FileEdits] = []
    package private(set) var newVersions: [NewVersion] = []
    package private(set) var outcomes: [Outcome] = []
    /// Reads a file of the run (display path) as it is on disk; nil when it cannot be read.
    package let read: @Sendable (String) -> [UInt8]?

    package init(read: @escaping @Sendable (String) -> [UInt8]?) {
        self.read = read
    }

    /// The file's bytes as read (or as first read this run), to find what to replace.
    package mutating func bytes(of path: String) -> [UInt8]? {
        if let known = files.first(where: { $0.path == path }) { return known.original }
        guard let bytes = read(path) else { return nil }
        files.append(FileEdits(path: path, original: bytes))
        return bytes
    }

    /// Replaces a range of the file as read; false when another repair already changed it.
    package mutating func replace(_ range: Range<Int>, in path: String, with text: String) -> Bool {
        guard bytes(of: path) != nil, let index = files.firstIndex(where: { $0.path == path }) else { return false }
        return files[index].replace(range, with: Array(text.utf8))
    }

    /// Replaces the whole file (creating it when `mayCreate` and it does not exist); false when another repair
    /// already changed it.
    package mutating func replaceWhole(_ path: String, with bytes: [UInt8], mayCreate: Bool = false) -> Bool {
        if self.bytes(of: path) == nil {
            guard mayCreate else { return false }
            var created = FileEdits(path: path, original: [])
            created.existed = false
            files.append(created)
        }
        guard let index = files.firstIndex(where: { $0.path == path }) else { return false }
        return files[index].replaceWhole(with: bytes)
    }

    /// False when the bundle already gets a version of that name this run.
    package mutating func addVersion(_ name: String, to bundlePath: String, contents: [UInt8]) -> Bool {
        guard !newVersions.contains(where: { $0.bundlePath == bundlePath }) else { return false }
        newVersions.append(NewVersion(bundlePath: bundlePath, name: name, contents: contents))
        return true
    }

    package mutating func repaired(_ diagnostic: Diagnostic, _ text: String) {
        outcomes.append(Outcome(diagnostic: diagnostic, repaired: true, text: text))
    }

    package mutating func left(_ diagnostic: Diagnostic, _ why: String) {
        outcomes.append(Outcome(diagnostic: diagnostic, repaired: false, text: why))
    }

    /// The files whose bytes change.
    package var changedFiles: [FileEdits] { files.filter { $0.changes || !$0.existed } }
}

/// Plans every repair for a run's findings.
package enum RepairPlanner {
    /// `only`: rule ids to repair (empty: every rule with a repair).
    package static func plan(
        _ diagnostics: [Diagnostic], subjects: [RepairSubject], only: Set<String>,
        read: @escaping @Sendable (String) -> [UInt8]?
    ) -> RepairPlan {
        var plan = RepairPlan(read: read)
        for diagnostic in diagnostics where only.isEmpty || only.contains(diagnostic.ruleId) {
            guard let repair = Repairs.repair(for: diagnostic.ruleId) else { continue }
            guard let subject = subjects.first(where: { $0.bundle.path == diagnostic.bundle }) else {
                plan.left(diagnostic, "its bundle was not read as an .xcdatamodeld bundle")
                continue
            }
            guard subject.bundle.source == .xcdatamodeld else {
                plan.left(diagnostic, "a SwiftData schema is repaired in its Swift source, which fix does not edit")
                continue
            }
            repair.repair(diagnostic, in: subject, plan: &plan)
        }
        return plan
    }
}
