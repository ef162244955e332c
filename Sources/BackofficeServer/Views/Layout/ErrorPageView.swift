import BackofficeCore
import Vapor

struct ErrorPageView: PageView {
  var status: HTTPResponseStatus
  var message: String

  var title: String {
    status.code == 404
      ? L("errors.not_found.heading") : L("errors.title", ["code": "\(status.code)"])
  }

  func content(context: PageContext) -> HTMLNode {
    let heading: String
    let advice: String
    switch status.code {
    case 404:
      heading = L("errors.not_found.heading")
      advice = L("errors.not_found.advice")
    case 403:
      heading = L("errors.forbidden.heading")
      advice = message
    case 500...:
      heading = L("errors.server.heading")
      advice = L("errors.server.advice")
    default:
      heading = L("errors.other.heading")
      // A message that only repeats the heading is replaced by what to do.
      advice = message == heading ? L("errors.other.advice") : message
    }
    return H.div(
      [.class("error-page")],
      [
        H.p([.class("error-code")], "\(status.code)"),
        H.h1(heading),
        H.p([], advice),
        H.a(Routes.home.href(), [.class("button")], text: L("errors.go_home")),
      ])
  }
}
