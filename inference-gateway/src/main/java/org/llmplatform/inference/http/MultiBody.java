package org.llmplatform.inference.http;

import io.smallrye.mutiny.Multi;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Flow;

/** A {@link StreamedBody} of the items of a stream, requested one at a time while the client keeps up. */
final class MultiBody implements StreamedBody {

    private final Multi<String> events;

    MultiBody(Multi<String> events) {
        this.events = events;
    }

    @Override
    public void writeTo(Sink sink) {
        events.subscribe().withSubscriber(new Flow.Subscriber<String>() {
            private Flow.Subscription subscription;

            @Override
            public void onSubscribe(Flow.Subscription subscription) {
                this.subscription = subscription;
                sink.whenClosed(subscription::cancel);
                subscription.request(1);
            }

            @Override
            public void onNext(String event) {
                if (sink.write(event.getBytes(StandardCharsets.UTF_8))) {
                    subscription.request(1);
                } else {
                    sink.whenWritable(() -> subscription.request(1));
                }
            }

            @Override
            public void onError(Throwable failure) {
                sink.fail(failure);
            }

            @Override
            public void onComplete() {
                sink.end();
            }
        });
    }
}
