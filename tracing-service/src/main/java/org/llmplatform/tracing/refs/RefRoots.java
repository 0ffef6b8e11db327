package org.llmplatform.tracing.refs;

import io.smallrye.mutiny.Uni;
import java.util.List;
import org.llmplatform.tracing.refs.RefResolver.Root;

/**
 * The versions that object and op refs name, as the feature that stores them finds them: refs/ reads no
 * feature's store, so each feature whose values refs name implements an interface of refs/ (this one, {@link TableRows}).
 */
public interface RefRoots {

    /** The root versions of object/op refs, positionally. */
    Uni<List<Root>> roots(List<ParsedRef> refs);
}
