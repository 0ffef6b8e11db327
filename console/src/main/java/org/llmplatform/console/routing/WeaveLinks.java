package org.llmplatform.console.routing;

import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Opens the links the Weave SDKs print (docs/local-stack.md#the-link-each-traced-call-prints) on the console's own
 * pages: a call ({@code /<entity>/<project>/r/call/<id>} from both SDKs, {@code …/weave/r/call/<id>} from Python
 * releases that take the UI from the trace server's URL, {@code …/weave/calls/<id>} the Weave UI's own), an object or
 * op version ({@code …/weave/objects|ops/<name>/versions/<digest>}, what the Python SDK prints on publishing) and the
 * project ({@code …/weave}, what it prints on {@code weave.init}). Each answers with a redirect to the page's fragment
 * URL. Matched before the API relay, so that an entity named like an API prefix ({@code calls}, {@code v1}) still
 * gets its link.
 */
@ApplicationScoped
public class WeaveLinks {

    /** A link's shape and the console page it opens. Segments stay percent-encoded as they came: the page decodes them. */
    private record Link(Pattern shape, Function<Matcher, String> page) {
    }

    private static final String PROJECT = "^/([^/]+)/([^/]+)";

    private static final List<Link> LINKS = List.of(
            new Link(Pattern.compile(PROJECT + "/(?:r/call|weave/r/call|weave/calls)/([^/]+)/?$"),
                    link -> project(link) + "/calls/" + link.group(3)),
            new Link(Pattern.compile(PROJECT + "/weave/(?:objects|ops)/([^/]+)/versions/([^/]+)/?$"),
                    link -> project(link) + "/objects/" + link.group(3) + "?digest=" + link.group(4)),
            new Link(Pattern.compile(PROJECT + "/weave/?$"), link -> project(link) + "/calls"));

    void register(@Observes Router router) {
        router.route().order(ApiRouter.ORDER - 1).handler(this::redirect);
    }

    private void redirect(RoutingContext context) {
        HttpMethod method = context.request().method();
        Optional<String> page = method == HttpMethod.GET || method == HttpMethod.HEAD ? consolePage(context.request().path()) : Optional.empty();
        if (page.isEmpty()) {
            context.next();
            return;
        }
        context.response().setStatusCode(302).putHeader("Location", page.get()).putHeader("Cache-Control", "no-store").end();
    }

    /** The console page a link opens, as a path with the fragment ({@code /#/p/<entity>/<project>/calls/<id>}), if it is one. */
    static Optional<String> consolePage(String path) {
        for (Link link : LINKS) {
            Matcher matched = link.shape().matcher(path);
            if (matched.matches()) {
                return Optional.of(link.page().apply(matched));
            }
        }
        return Optional.empty();
    }

    private static String project(Matcher link) {
        return "/#/p/" + link.group(1) + "/" + link.group(2);
    }
}
