import Vapor

extension HTTPBodyStreamStrategy {
  /// A JSON body that may carry one photo as base64 (4/3 of its bytes) at the full upload
  /// limit, with a megabyte to spare for the other fields.
  static func jsonWithPhoto(maxUploadBytes: Int) -> Self {
    .collect(maxSize: ByteCount(value: maxUploadBytes / 3 * 4 + 1_048_576))
  }
}
