package org.llmplatform.localstack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StackOptionsTest {

    /** The repository this module is built in: it ships models/stories260K.bin and models/tok512.bin. */
    private static final Path REPOSITORY = Path.of("..").toAbsolutePath().normalize();

    @Test
    void withNoFlagsTheShippedModelIsServedFromTheRepository() {
        StackOptions options = StackOptions.parse(new String[0], REPOSITORY);

        assertEquals(Optional.of(REPOSITORY.resolve("models/stories260K.bin")), options.model());
        assertEquals(Optional.of(REPOSITORY.resolve("models/tok512.bin")), options.tokenizer());
        assertEquals(Optional.of("stories260K"), options.modelId());
        assertTrue(Files.isRegularFile(options.model().get()), "the repository ships " + options.model().get());
    }

    @Test
    void theConsolesHttpsPortIs8443UnlessNamed() {
        assertEquals(8443, StackOptions.parse(new String[0], REPOSITORY).consoleHttpsPort());
        assertEquals(9305, StackOptions.parse(new String[] {"--console-https-port", "9305"}, REPOSITORY).consoleHttpsPort());
    }

    @Test
    void replicasListenOnTheServicesPortPlusAHundredEachAndTheConsoleRunsOnce() {
        StackOptions options = StackOptions.parse(new String[] {"--replicas", "3", "--tracing-port", "21310"}, REPOSITORY);

        assertEquals(List.of(21310, 21410, 21510), List.of(options.port(PlatformService.TRACING, 0),
                options.port(PlatformService.TRACING, 1), options.port(PlatformService.TRACING, 2)));
        assertEquals(3, options.replicasOf(PlatformService.AUTOMATION));
        assertEquals(1, options.replicasOf(PlatformService.CONSOLE));
        assertEquals(1, StackOptions.parse(new String[0], REPOSITORY).replicas());
        for (String wrong : List.of("0", "10", "two")) {
            StackOptions.UsageException error = assertThrows(StackOptions.UsageException.class,
                    () -> StackOptions.parse(new String[] {"--replicas", wrong}, REPOSITORY));
            assertTrue(error.getMessage().contains("--replicas must be a number from 1 to 9"), error.getMessage());
        }
    }

    @Test
    void noModelServesNone() {
        StackOptions options = StackOptions.parse(new String[] {"--no-model"}, REPOSITORY);

        assertEquals(Optional.empty(), options.model());
        assertEquals(Optional.empty(), options.tokenizer());
        assertEquals(Optional.empty(), options.modelId());
    }

    @Test
    void anotherCheckpointIsServedUnderItsFileName(@TempDir Path folder) throws Exception {
        Path checkpoint = Files.write(folder.resolve("tales-15M.bin"), new byte[] {1});
        Path tokenizer = Files.write(folder.resolve("tok32000.bin"), new byte[] {1});

        StackOptions options = StackOptions.parse(new String[] {"--model", checkpoint.toString(), "--tokenizer", tokenizer.toString()}, REPOSITORY);

        assertEquals(Optional.of(checkpoint), options.model());
        assertEquals(Optional.of(tokenizer), options.tokenizer());
        assertEquals(Optional.of("tales-15M"), options.modelId());
    }

    @Test
    void noModelWithAModelIsRefused() {
        StackOptions.UsageException refused = assertThrows(StackOptions.UsageException.class, () -> StackOptions.parse(
                new String[] {"--no-model", "--model", "../models/stories260K.bin", "--tokenizer", "../models/tok512.bin"}, REPOSITORY));

        assertEquals("--no-model and --model: choose one", refused.getMessage());
    }

    @Test
    void aModelWithoutItsTokenizerIsRefused() {
        StackOptions.UsageException refused = assertThrows(StackOptions.UsageException.class,
                () -> StackOptions.parse(new String[] {"--model", "../models/stories260K.bin"}, REPOSITORY));

        assertEquals("--model and --tokenizer go together", refused.getMessage());
    }

    @Test
    void aCheckoutWithoutTheShippedModelSaysHowToGoOn(@TempDir Path emptyCheckout) {
        StackOptions.UsageException refused = assertThrows(StackOptions.UsageException.class,
                () -> StackOptions.parse(new String[0], emptyCheckout));

        assertEquals("models/stories260K.bin is missing from " + emptyCheckout + " (git checkout -- models restores it),"
                + " or choose another model with --model/--tokenizer, or none with --no-model", refused.getMessage());
    }

    @Test
    void anUpstreamIsServedUnderItsIdWithTheModelAndTheKeyVariableItNames() {
        StackOptions options = StackOptions.parse(new String[] {"--upstream", "ollama=http://localhost:11434/v1,model=llama3.2",
                "--upstream", "openai=https://api.openai.com/v1,model=gpt-4o-mini,key-env=OPENAI_API_KEY"}, REPOSITORY,
                Map.of("OPENAI_API_KEY", "sk-test")::get);

        assertEquals(List.of("ollama", "openai"), options.upstreams().stream().map(UpstreamOption::id).toList());
        assertEquals(List.of("-Dgateway.upstreams.\"ollama\".url=http://localhost:11434/v1",
                "-Dgateway.upstreams.\"ollama\".model=llama3.2"), options.upstreams().get(0).gatewayProperties());
        // the key stays in the environment: the property names its variable
        assertEquals(List.of("-Dgateway.upstreams.\"openai\".url=https://api.openai.com/v1",
                "-Dgateway.upstreams.\"openai\".model=gpt-4o-mini", "-Dgateway.upstreams.\"openai\".api-key=${OPENAI_API_KEY}"),
                options.upstreams().get(1).gatewayProperties());
        Map<String, String> environment = new HashMap<>();
        options.upstreams().forEach(upstream -> upstream.environment(environment));
        assertEquals(Map.of("OPENAI_API_KEY", "sk-test"), environment);
        assertFalse(options.upstreams().get(1).toString().contains("sk-test"));
    }

    @Test
    void anUpstreamWithoutAModelIsAskedForItsId() {
        UpstreamOption upstream = StackOptions.parse(new String[] {"--upstream", "llama3.2=http://localhost:11434/v1"},
                REPOSITORY).upstreams().get(0);

        assertEquals(List.of("-Dgateway.upstreams.\"llama3.2\".url=http://localhost:11434/v1"), upstream.gatewayProperties());
    }

    @Test
    void aMalformedUpstreamIsRefusedSayingWhatItNeeds() {
        assertEquals("--upstream ollama is ID=URL[,model=NAME][,key-env=VAR]", refusal("ollama"));
        assertEquals("--upstream ollama=localhost:11434 needs the server's http(s) base URL with its /v1, e.g."
                + " http://localhost:11434/v1, got 'localhost:11434'", refusal("ollama=localhost:11434"));
        assertEquals("--upstream ollama=http://localhost:11434/v1,size=3 takes model=NAME and key-env=VAR (an environment"
                + " variable's name) after the URL, got 'size=3'", refusal("ollama=http://localhost:11434/v1,size=3"));
        assertEquals("--upstream openai=https://api.openai.com/v1,key-env=NO_SUCH_KEY_VARIABLE reads its key from"
                + " NO_SUCH_KEY_VARIABLE, which is not set", refusal("openai=https://api.openai.com/v1,key-env=NO_SUCH_KEY_VARIABLE"));
        assertEquals("--upstream a b=http://x/v1 needs an id of letters, digits, '.', '_', ':' or '-' before '=', got 'a b'",
                refusal("a b=http://x/v1"));
    }

    @Test
    void anUpstreamIsNamedOnceAndNotAfterTheEnginesModel() {
        assertEquals("--upstream a is named twice", assertThrows(StackOptions.UsageException.class, () -> StackOptions.parse(
                new String[] {"--upstream", "a=http://x/v1", "--upstream", "a=http://y/v1"}, REPOSITORY)).getMessage());
        assertEquals("--upstream stories260K has the id of the engine's model: choose another", refusal("stories260K=http://x/v1"));
    }

    private static String refusal(String upstream) {
        return assertThrows(StackOptions.UsageException.class,
                () -> StackOptions.parse(new String[] {"--upstream", upstream}, REPOSITORY, name -> null)).getMessage();
    }
}
