import Dispatch
import ModelLintSupport
import ModelLintModel
import ModelLintRules
import ModelLintGather

/// `check --against REF --only-new` lints the work tree and REF side by side, and most of REF's versions are the work
/// tree's own (`ModelBundle.workTreeVersions`: the same models, shown at the same paths). What the single-version
/// rules find in a version, and what the change rules find on a step between two versions, depends on those models
/// and the rule context alone; so the work tree's run offers what it judged of each bundle, and REF's run takes it
/// for the versions and steps it shares, instead of judging them again. REF's run judges everything else first and
/// then waits for the offer. The work tree's run closes the exchange when it ends, whatever it offered, so nothing
/// waits for an offer that will not come: what was not offered, REF's run judges itself.
package final class JudgementExchange: Sendable {
    /// Which side of the exchange a run's judge is on.
    package enum Side: Sendable {
        case offering(JudgementExchange)
        case taking(JudgementExchange)
    }

    /// What the work tree's run judged of one bundle, and with what: taken only by a run with the same rules and
    /// the same rule context.
    struct Offer: Sendable {
        var rules: Set<String>
        var context: RuleContext
        /// Per version, per single-version rule (`Judge.versionFindings`).
        var versions: [ExactName: [[Finding]]]
        /// Per step (consecutive versions, by name): what the change rules found.
        var steps: [Step: Judge.PairFindings]
    }

    struct Step: Hashable, Sendable {
        var from: ExactName
        var to: ExactName
    }

    private struct State {
        var offers: [String: Offer] = [:]
        var closed = false
        var taken = Taken()
        /// One per bundle a taker waits for: entered when the wait starts, left by the offer or by closing.
        var signals: [String: DispatchGroup] = [:]
    }
    private let state = Locked(State())

    package init() {}

    /// How much REF's run took instead of judging: versions and steps.
    package struct Taken: Sendable, Equatable {
        package var versions = 0
        package var steps = 0

        package init(versions: Int = 0, steps: Int = 0) {
            self.versions = versions
            self.steps = steps
        }
    }
    package var taken: Taken { state.withLock { $0.taken } }

    func record(takenVersions versions: Int, steps: Int) {
        state.withLock {
            $0.taken.versions += versions
            $0.taken.steps += steps
        }
    }

    /// The work tree's judgement of the bundle at `path` (its display path), once.
    func offer(_ offer: Offer, forBundle path: String) {
        let signal = state.withLock { state -> DispatchGroup? in
            guard !state.closed, state.offers[path] == nil else { return nil }
            state.offers[path] = offer
            return state.signals.removeValue(forKey: path)
        }
        signal?.leave()
    }

    /// The work tree's run is over: no more offers.
    package func close() {
        let signals = state.withLock { state -> [DispatchGroup] in
            state.closed = true
            defer { state.signals = [:] }
            return Array(state.signals.values)
        }
        for signal in signals { signal.leave() }
    }

    /// What the work tree's run offered for the bundle at `path`, waiting for it until the exchange closes.
    func offer(forBundle path: String) -> Offer? {
        let signal = state.withLock { state -> DispatchGroup? in
            guard state.offers[path] == nil, !state.closed else { return nil }
            if let waiting = state.signals[path] { return waiting }
            let signal = DispatchGroup()
            signal.enter()
            state.signals[path] = signal
            return signal
        }
        signal?.wait()
        return state.withLock { $0.offers[path] }
    }
}
