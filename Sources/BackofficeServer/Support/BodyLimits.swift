import Vapor

/// What a route's request body may hold, which decides how much of it is read.
enum BodyKind: Sendable, Equatable {
  /// A form or JSON body without files (and uploads of small documents).
  case standard
  /// A page form with a photo field. Up to four times the photo limit is read, so a photo that
  /// is somewhat too large still gets its form back, typed fields kept, with the message; only
  /// a far bigger body is refused before it is read (413 page).
  case photoForm
  /// The expense form, which may carry every receipt an expense keeps, each at the photo limit.
  case receiptForm
  /// A JSON body that may carry one photo as base64 (4/3 of its bytes) at the full upload
  /// limit, with a megabyte to spare for the other fields.
  case jsonWithPhoto
}

/// The byte limits of each `BodyKind` for the configured upload limit.
struct BodyLimits: Sendable {
  let maxUploadBytes: Int

  func bytes(_ kind: BodyKind) -> Int {
    switch kind {
    case .standard: maxUploadBytes + 256 * 1024
    case .photoForm: maxUploadBytes * 4 + 1_048_576
    case .receiptForm: maxUploadBytes * ExpenseReceipts.maxPerExpense + 1_048_576
    case .jsonWithPhoto: maxUploadBytes / 3 * 4 + 1_048_576
    }
  }

  func strategy(_ kind: BodyKind) -> HTTPBodyStreamStrategy {
    .collect(maxSize: ByteCount(value: bytes(kind)))
  }

  /// The strategy for `route`'s body kind.
  func strategy(for route: AppRoute) -> HTTPBodyStreamStrategy { strategy(route.body) }
}
