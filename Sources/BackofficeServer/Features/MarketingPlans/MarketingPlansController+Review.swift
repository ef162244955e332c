import BackofficeCore
import Fluent
import Foundation
import Vapor

/// The review step: the plan's packages, totals and the e-mail that sends it.
extension MarketingPlansController {
  // MARK: review and e-mail

  @Sendable func review(req: Request) async throws -> Response {
    let (plan, id, stored, selection) = try await load(req)
    return try await reviewPage(req, plan: plan, id: id, stored: stored, selection: selection)
  }

  func reviewPage(
    _ req: Request, plan: MarketingPlanRecord, id: UUID, stored: StoredMarketingCatalog?,
    selection: PlanSelection, header override: MarketingPlanHeader? = nil,
    email typed: MarketingReviewPage.Email? = nil, status: HTTPResponseStatus = .ok
  ) async throws -> Response {
    let header = override ?? header(plan, id, .review, selection)
    guard let stored else {
      return req.page(
        MarketingReviewPage(header: header, stored: nil, summary: nil, email: nil),
        status: status == .ok ? .serviceUnavailable : status)
    }
    let summary = MarketingPlanQueries.summary(
      of: plan, selection: selection, catalog: stored.catalog,
      locale: try MarketingPlanQueries.locale(req), now: req.now)
    let subject = plan.subject ?? summary.subject
    let sentMails =
      req.application.mailDelivery == nil
      ? []
      : try await MailOutbox(db: req.db).recent(
        requestedBy: try req.userID, kind: .marketingPlan, workspace: try req.workspaceID,
        limit: 3)
    let email =
      typed
      ?? MarketingReviewPage.Email(
        recipient: plan.recipient, subject: subject,
        mailto: summary.mailtoURL(recipient: plan.recipient, subject: subject))
    var page = MarketingReviewPage(header: header, stored: stored, summary: summary, email: email)
    if req.application.mailDelivery != nil {
      page.mailOn = true
      page.sentMails = sentMails
    }
    return req.page(page, status: status)
  }

  /// "Send": the plan's summary to its saved recipient, through the server's mail (queued; the
  /// review page shows what became of it). Answers from the recipient go to the sender.
  @Sendable func sendEmail(req: Request) async throws -> Response {
    guard req.application.mailDelivery != nil else { throw Abort(.notFound) }
    let (plan, id, stored, selection) = try await load(req)
    guard let stored else {
      throw Abort(.serviceUnavailable, reason: L("marketing.catalog_unreadable"))
    }
    let recipient = plan.recipient.trimmingCharacters(in: .whitespacesAndNewlines)
    if recipient.isEmpty {
      req.flash(.error, L("marketing.email.send_no_recipient"))
      return req.redirect(to: Routes.marketingPlanReview.href(id: id) + "#send-email")
    }
    if let problem = MarketingPlanRules.recipientProblem(recipient) {
      req.flash(.error, L("marketing.email.recipient_problem", ["problem": problem]))
      return req.redirect(to: Routes.marketingPlanReview.href(id: id) + "#send-email")
    }
    let summary = MarketingPlanQueries.summary(
      of: plan, selection: selection, catalog: stored.catalog,
      locale: try MarketingPlanQueries.locale(req), now: req.now)
    let user = try req.user
    try await req.application.queueMail(
      OutgoingMail(
        kind: .marketingPlan, to: recipient, subject: plan.subject ?? summary.subject,
        body: summary.text, requestedBy: try req.userID, workspaceID: try req.workspaceID,
        replyTo: user.email),
      on: req.db)
    req.flash(.success, L("marketing.email.send_queued", ["email": recipient]))
    return req.redirect(to: Routes.marketingPlanReview.href(id: id) + "#send-email")
  }

  /// Removing is not applied onto a plan changed meanwhile: the review shows the plan as it is
  /// now instead.
  @Sendable func remove(req: Request) async throws -> Response {
    let form = try req.content.decode(PackageForm.self)
    guard let found = try await MarketingPlanQueries.plan(req) else { return Self.gone(req) }
    let (plan, id, _, selection) = try await load(req, plan: found)
    let packageID = form.package ?? ""
    var updated = selection
    updated.remove(packageID: packageID)
    let result = updated
    guard
      try await save(plan, formVersion: form.version, on: req.db, { $0.selection = result })
    else {
      guard let (plan, id, stored, selection) = try await reload(req) else {
        return Self.gone(req)
      }
      let name =
        stored?.catalog.channels.lazy.flatMap(\.packages).first { $0.id == packageID }?.name
        ?? packageID
      var header = header(plan, id, .review, selection)
      header.conflict = L("marketing.conflict.package_not_removed", ["package": name])
      return try await reviewPage(
        req, plan: plan, id: id, stored: stored, selection: selection, header: header,
        status: .conflict)
    }
    return req.redirect(to: Routes.marketingPlanReview.href(id: id))
  }

  struct EmailForm: Content {
    var recipient: String?
    var subject: String?
    var version: String?
  }

  @Sendable func saveEmail(req: Request) async throws -> Response {
    let form = try req.content.decode(EmailForm.self)
    let recipient = (form.recipient ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    let subject = MarketingPlanRules.cleanSubject(form.subject ?? "")
    guard let found = try await MarketingPlanQueries.plan(req) else {
      return Self.gone(
        req,
        typed: [
          (L("marketing.email.recipient"), recipient), (L("marketing.email.subject"), subject),
        ])
    }
    let (plan, id, stored, selection) = try await load(req, plan: found)
    let recipientError = MarketingPlanRules.recipientProblem(recipient)
    let subjectError = MarketingPlanRules.subjectProblem(subject)
    if recipientError != nil || subjectError != nil {
      var header = header(plan, id, .review, selection)
      // A form sent back for its errors keeps the version it was opened at.
      header.version = VersionField.parse(form.version) ?? 0
      return try await reviewPage(
        req, plan: plan, id: id, stored: stored, selection: selection, header: header,
        email: MarketingReviewPage.Email(
          recipient: recipient, subject: subject, recipientError: recipientError,
          subjectError: subjectError, mailto: mailto(req, plan, selection, stored)),
        status: .unprocessableEntity)
    }
    let storedSubject = MarketingPlanRules.storedSubject(
      subject, locale: try MarketingPlanQueries.locale(req), now: req.now)
    guard
      try await save(
        plan, formVersion: form.version, on: req.db,
        {
          $0.recipient = recipient
          $0.subject = storedSubject
        })
    else {
      guard let (plan, id, stored, selection) = try await reload(req) else {
        return Self.gone(
          req,
          typed: [
            (L("marketing.email.recipient"), recipient), (L("marketing.email.subject"), subject),
          ])
      }
      var header = header(plan, id, .review, selection)
      header.conflict = L("marketing.conflict.email_not_saved")
      let locale = try MarketingPlanQueries.locale(req)
      let savedSubject =
        plan.subject ?? MarketingPlanRules.defaultSubject(locale: locale, now: req.now)
      let differing = SavedValue.differing(
        typed: ["recipient": recipient, "subject": subject],
        saved: ["recipient": plan.recipient, "subject": savedSubject])
      var email = MarketingReviewPage.Email(
        recipient: recipient, subject: subject, mailto: mailto(req, plan, selection, stored))
      email.recipientSaved = differing["recipient"]
      email.subjectSaved = differing["subject"]
      return try await reviewPage(
        req, plan: plan, id: id, stored: stored, selection: selection, header: header,
        email: email, status: .conflict)
    }
    req.flash(.success, L("marketing.flash.email_saved"))
    return req.redirect(to: Routes.marketingPlanReview.href(id: id) + "#send-email")
  }

  /// The mail app link for the plan's saved details.
  func mailto(
    _ req: Request, _ plan: MarketingPlanRecord, _ selection: PlanSelection,
    _ stored: StoredMarketingCatalog?
  ) -> MailtoLink {
    stored.map {
      MarketingPlanQueries.summary(
        of: plan, selection: selection, catalog: $0.catalog,
        locale: (try? MarketingPlanQueries.locale(req)) ?? .enUS, now: req.now
      ).mailtoURL(recipient: plan.recipient, subject: plan.subject)
    } ?? MailtoLink(string: "mailto:", wasShortened: false, omittedEntries: 0)
  }

  @Sendable func downloadEmail(req: Request) async throws -> Response {
    let (plan, _, stored, selection) = try await load(req)
    guard let stored else {
      throw Abort(.serviceUnavailable, reason: L("marketing.catalog_unreadable"))
    }
    let recipient = (req.queryValue("recipient") ?? plan.recipient)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    if let problem = MarketingPlanRules.recipientProblem(recipient) {
      throw Abort(
        .unprocessableEntity, reason: L("marketing.email.recipient_problem", ["problem": problem]))
    }
    let summary = MarketingPlanQueries.summary(
      of: plan, selection: selection, catalog: stored.catalog,
      locale: try MarketingPlanQueries.locale(req), now: req.now)
    let querySubject = req.queryValue("subject").map(MarketingPlanRules.cleanSubject)
    let subject =
      (querySubject?.isEmpty == false ? querySubject : nil) ?? plan.subject ?? summary.subject
    let message = summary.emailMessage(
      from: try req.user.email, to: recipient, subject: subject, date: req.now)
    return MarketingEmailDetails.emlResponse(message, planName: plan.name)
  }
}
