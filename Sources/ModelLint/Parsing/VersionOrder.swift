/// The order versions were created in, as far as names tell: names without any digit first (the base
/// version), then natural order — case-insensitive text, digit runs compared as numbers.
public enum VersionOrder {
    public static func sorted(_ names: [String], explicit: [String]? = nil) -> [String] {
        // Each name's key once, not once per comparison (a bundle of 117 versions takes ~700 comparisons).
        let keyed = names.map { (name: $0, hasDigit: $0.contains(where: \.isASCIIDigit), scalars: Array($0.lowercased().unicodeScalars)) }
        let natural = keyed.sorted { a, b in
            if a.hasDigit != b.hasDigit { return !a.hasDigit }
            let order = naturalCompare(a.scalars, b.scalars)
            return order == 0 ? a.name < b.name : order < 0
        }.map(\.name)
        guard let explicit, !explicit.isEmpty else { return natural }
        // Listed versions in the configured order; versions the list does not name follow in natural order,
        // so adding a version never breaks a configured bundle.
        let present = Set(names)
        let listed = explicit.filter { present.contains($0) }
        let listedSet = Set(listed)
        return listed + natural.filter { !listedSet.contains($0) }
    }

    public static func precedes(_ a: String, _ b: String) -> Bool {
        let aHasDigit = a.contains(where: \.isASCIIDigit)
        let bHasDigit = b.contains(where: \.isASCIIDigit)
        if aHasDigit != bHasDigit { return !aHasDigit }
        let order = naturalCompare(a, b)
        return order == 0 ? a < b : order < 0
    }

    /// -1, 0, 1. Digit runs compare by value (leading zeros ignored), the rest case-insensitively.
    static func naturalCompare(_ a: String, _ b: String) -> Int {
        naturalCompare(Array(a.lowercased().unicodeScalars), Array(b.lowercased().unicodeScalars))
    }

    static func naturalCompare(_ x: [Unicode.Scalar], _ y: [Unicode.Scalar]) -> Int {
        var i = 0, j = 0
        while i < x.count && j < y.count {
            if x[i].isDigit && y[j].isDigit {
                var i2 = i, j2 = j
                while i2 < x.count && x[i2].isDigit { i2 += 1 }
                while j2 < y.count && y[j2].isDigit { j2 += 1 }
                // Leading zeros aside, a longer run is a larger number; equal lengths compare digit by digit.
                let u = x[i..<i2].drop { $0 == "0" }, v = y[j..<j2].drop { $0 == "0" }
                if u.count != v.count { return u.count < v.count ? -1 : 1 }
                for (p, q) in zip(u, v) where p != q { return p.value < q.value ? -1 : 1 }
                i = i2; j = j2
            } else {
                if x[i] != y[j] { return x[i].value < y[j].value ? -1 : 1 }
                i += 1; j += 1
            }
        }
        if i < x.count { return 1 }
        if j < y.count { return -1 }
        return 0
    }
}

extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

extension Unicode.Scalar {
    var isDigit: Bool { value >= 48 && value <= 57 }
}
