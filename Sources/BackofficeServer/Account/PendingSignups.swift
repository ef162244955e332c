import Foundation

/// Sign-ups waiting for their address to be confirmed (when mail is on).
enum PendingSignups {
  static let table = "pending_signups"
}
