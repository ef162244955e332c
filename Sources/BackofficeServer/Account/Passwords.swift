import BackofficeCore
import Foundation

/// Account credential rules, shared by sign-up, password change and `user create`.
enum Passwords {
  static let minimumLength = 8
  /// Bcrypt reads at most 72 bytes; anything longer would be silently ignored.
  static let maximumBytes = 72

  static func problem(with password: String) -> String? {
    if password.count < minimumLength {
      return L("auth.password.too_short", ["count": String(minimumLength)])
    }
    if password.utf8.count > maximumBytes {
      return L("auth.password.too_long", ["count": String(maximumBytes)])
    }
    return nil
  }
}

enum EmailAddress {
  static let maxLength = 254

  /// Lowercased and trimmed, so one person cannot hold two accounts by changing case.
  static func normalize(_ raw: String) -> String {
    raw.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
  }

  static func problem(with email: String) -> String? {
    if email.isEmpty { return L("auth.email.blank") }
    let parts = email.split(separator: "@", omittingEmptySubsequences: false)
    guard email.count <= maxLength, parts.count == 2, !parts[0].isEmpty,
      parts[1].contains("."), !parts[1].hasPrefix("."), !parts[1].hasSuffix("."),
      !email.contains(where: { $0.isWhitespace }),
      !email.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
    else {
      return L("auth.email.invalid")
    }
    return nil
  }
}
