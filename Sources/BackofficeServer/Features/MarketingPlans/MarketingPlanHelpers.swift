import BackofficeCore
import Fluent
import Foundation
import Vapor

/// The `.eml` download.
enum MarketingEmailDetails {
  static func emlResponse(_ message: EmailMessage, planName: String) -> Response {
    let response = Response(status: .ok, body: .init(data: message.data))
    response.headers.replaceOrAdd(name: .contentType, value: "message/rfc822")
    response.headers.replaceOrAdd(
      name: .contentDisposition, value: "attachment; filename=\"\(fileName(planName)).eml\"")
    response.headers.replaceOrAdd(name: .cacheControl, value: "no-store")
    return response
  }

  /// A file name made of the plan name's ASCII letters and digits ("Spring push" →
  /// "spring-push"), so the header needs no encoding.
  static func fileName(_ name: String) -> String {
    var slug = ""
    for scalar in name.lowercased().unicodeScalars {
      if scalar.isASCII, CharacterSet.alphanumerics.contains(scalar) {
        slug.unicodeScalars.append(scalar)
      } else if !slug.hasSuffix("-"), !slug.isEmpty {
        slug += "-"
      }
    }
    while slug.hasSuffix("-") { slug.removeLast() }
    return slug.isEmpty ? "marketing-plan" : String(slug.prefix(60))
  }
}

enum MarketingPlanDuplicate {
  static func copy(of plan: MarketingPlanRecord, selection: PlanSelection) -> MarketingPlanRecord {
    var copy = MarketingPlanRecord(
      workspaceID: plan.workspaceID, name: PlanName.copyName(of: plan.name), selection: selection,
      recipient: plan.recipient)
    copy.subject = plan.subject
    return copy
  }
}

extension MarketingHomeCard {
  static func load(_ req: Request) async throws -> Model {
    Model(
      planCount: try await MarketingPlanQueries.count(in: req.workspaceID, on: req.db))
  }
}
