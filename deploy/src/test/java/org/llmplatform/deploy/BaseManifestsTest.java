package org.llmplatform.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.llmplatform.deploy.Manifests.ofKind;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.api.model.networking.v1.IngressBackend;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyEgressRule;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class BaseManifestsTest {

    private final List<ObjectNode> base = Manifests.base();

    @Test
    void theBasePassesEveryReviewCheck() {
        assertEquals(List.of(), ResourceChecks.problemsIn(base));
    }

    @Test
    void aBudgetThatBlocksEveryEvictionOrAnAutoscalerStartingElsewhereIsReported() {
        List<ObjectNode> changed = Manifests.base();
        ofKind(changed, "PodDisruptionBudget").stream().filter(budget -> named(budget, "tracing-service"))
                .forEach(budget -> ((ObjectNode) budget.path("spec")).put("minAvailable", 2));
        ofKind(changed, "HorizontalPodAutoscaler").stream().filter(autoscaler -> named(autoscaler, "console"))
                .forEach(autoscaler -> ((ObjectNode) autoscaler.path("spec")).put("minReplicas", 3));
        assertEquals(List.of("Deployment console starts at 2 replicas, its autoscaler's minReplicas is 3",
                "PodDisruptionBudget tracing-service keeps 2 of 2 pods available: a drain could never evict one"),
                ResourceChecks.problemsIn(changed).stream().sorted().toList());
    }

    private static boolean named(ObjectNode resource, String name) {
        return name.equals(resource.path("metadata").path("name").asText());
    }

    @Test
    void everyServiceHasTheFullSetOfResources() {
        for (String service : Services.NAMES) {
            for (String kind : List.of("Deployment", "Service", "HorizontalPodAutoscaler", "PodDisruptionBudget",
                    "ServiceAccount", "NetworkPolicy")) {
                assertTrue(ofKind(base, kind).stream().anyMatch(resource -> service.equals(resource.path("metadata").path("name").asText())),
                        service + " has no " + kind);
            }
        }
    }

    @Test
    void eachContainerListensOnItsServicesConfiguredPort() {
        for (Deployment deployment : ofKind(base, "Deployment", Deployment.class)) {
            String service = deployment.getMetadata().getName();
            int port = deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getPorts().get(0).getContainerPort();
            assertEquals(Services.httpPort(service), port, service);
        }
    }

    @Test
    void servicesReachPostgresKafkaAndOnlyTheServicesTheyCall() {
        for (NetworkPolicy policy : ofKind(base, "NetworkPolicy", NetworkPolicy.class)) {
            Set<String> reachable = policy.getSpec().getEgress().stream()
                    .flatMap(rule -> rule.getTo().stream())
                    .filter(peer -> peer.getPodSelector() != null)
                    .flatMap(peer -> peer.getPodSelector().getMatchLabels().values().stream())
                    .collect(Collectors.toSet());
            String service = policy.getMetadata().getName();
            if (service.equals(Services.CONSOLE)) {
                Set<String> routedToAndDns = Stream.concat(Services.NAMES.stream().filter(name -> !name.equals(Services.CONSOLE)),
                        Stream.of("kube-dns")).collect(Collectors.toSet());
                assertEquals(routedToAndDns, reachable, "the console reaches the services it routes to and DNS only");
                continue;
            }
            assertTrue(reachable.containsAll(Set.of("platform-postgres", "platform-kafka", "kube-dns")), service + " reaches " + reachable);
            Set<String> services = reachable.stream().filter(Services.NAMES::contains).collect(Collectors.toSet());
            Set<String> called = switch (service) {
                case "tracing-service", "training-service" -> Set.of("inference-gateway");
                // asks about trained models it has not yet heard of on training.checkpoints
                case "inference-gateway" -> Set.of("training-service");
                default -> Set.of();
            };
            assertEquals(called, services, service + " may reach exactly the services it calls");
        }
    }

    /** ART's chat completions on the training host go on to the gateway; the gateway asks the training-service about new models. */
    @Test
    void theGatewayAndTheTrainingServiceAreToldEachOthersInClusterAddress() {
        assertEquals("http://inference-gateway:" + Services.httpPort("inference-gateway"),
                configValue("training-service-config", "PLATFORM_INFERENCE_URL"));
        assertEquals("http://training-service:" + Services.httpPort("training-service"),
                configValue("inference-gateway-config", "PLATFORM_TRAINING_URL"));
    }

    /**
     * Every replica the autoscalers may run opens its reactive pool, the identity pool (service-support: 4) and, at
     * start, one Flyway connection; all of them fit in PostgreSQL's {@code max_connections} with room left for the
     * operator, replication and an administrator.
     */
    @Test
    void postgresAllowsEveryConnectionTheAutoscaledServicesMayOpen() {
        int identityPool = 4;
        int flyway = 1;
        int reservedForOperatorAndAdmins = 20;
        int needed = 0;
        for (String service : Services.NAMES) {
            if (configValue(service + "-config", "QUARKUS_DATASOURCE_REACTIVE_URL") == null) {
                continue;
            }
            String poolSize = configValue(service + "-config", "QUARKUS_DATASOURCE_REACTIVE_MAX_SIZE");
            assertTrue(poolSize != null, service + " states its pool size (QUARKUS_DATASOURCE_REACTIVE_MAX_SIZE)");
            int maxReplicas = ofKind(base, "HorizontalPodAutoscaler").stream().filter(autoscaler -> named(autoscaler, service))
                    .mapToInt(autoscaler -> autoscaler.path("spec").path("maxReplicas").asInt()).findFirst().orElseThrow();
            needed += maxReplicas * (Integer.parseInt(poolSize) + identityPool + flyway);
        }
        int maxConnections = ofKind(base, "Cluster").get(0).path("spec").path("postgresql").path("parameters")
                .path("max_connections").asInt();
        assertTrue(needed + reservedForOperatorAndAdmins <= maxConnections,
                "the services may open " + needed + " connections; max_connections is " + maxConnections);
    }

    private String configValue(String configMap, String key) {
        return ofKind(base, "ConfigMap").stream()
                .filter(map -> configMap.equals(map.path("metadata").path("name").asText()))
                .map(map -> map.path("data").path(key))
                .filter(value -> !value.isMissingNode())
                .map(value -> value.asText())
                .findFirst().orElse(null);
    }

    @Test
    void theConsoleIsThePlatformsOneIngressAndItsRoutesPointAtTheServicesPorts() {
        List<Ingress> ingresses = ofKind(base, "Ingress", Ingress.class);
        assertEquals(1, ingresses.size());
        IngressBackend backend = ingresses.get(0).getSpec().getRules().get(0).getHttp().getPaths().get(0).getBackend();
        assertEquals(Services.CONSOLE, backend.getService().getName());
        assertEquals("http", backend.getService().getPort().getName());
        ObjectNode config = ofKind(base, "ConfigMap").stream()
                .filter(map -> map.path("metadata").path("name").asText().equals("console-config")).findFirst().orElseThrow();
        Map<String, String> urls = Map.of("PLATFORM_TRACING_URL", "tracing-service", "PLATFORM_INFERENCE_URL", "inference-gateway",
                "PLATFORM_TRAINING_URL", "training-service", "PLATFORM_AUTOMATION_URL", "automation-service");
        urls.forEach((variable, service) -> assertEquals("http://" + service + ":" + Services.httpPort(service),
                config.path("data").path(variable).asText(), variable));
    }

    @Test
    void onlyTheServicesThatCallOutsideOrKeepBlobsMayLeaveTheCluster() {
        for (NetworkPolicy policy : ofKind(base, "NetworkPolicy", NetworkPolicy.class)) {
            List<NetworkPolicyEgressRule> external = policy.getSpec().getEgress().stream()
                    .filter(rule -> rule.getTo().stream().anyMatch(peer -> peer.getIpBlock() != null)).toList();
            String service = policy.getMetadata().getName();
            assertEquals(Set.of("inference-gateway", "automation-service").contains(service) || BLOB_KEEPERS.contains(service),
                    !external.isEmpty(), service);
            if (BLOB_KEEPERS.contains(service) && !service.equals("inference-gateway")) {
                // to the object store only: HTTPS
                external.forEach(rule -> assertEquals(List.of(443), rule.getPorts().stream().map(port -> port.getPort().getIntVal()).toList(), service));
            }
        }
    }

    private static final Set<String> BLOB_KEEPERS = Set.of("tracing-service", "training-service", "inference-gateway");

    /** No pod mounts a shared volume: the services keeping blobs take the bucket from a ConfigMap and its keys from a Secret. */
    @Test
    void theServicesKeepingBlobsUseTheObjectStoreNotAClaim() {
        ObjectNode blobStore = ofKind(base, "ConfigMap").stream()
                .filter(map -> map.path("metadata").path("name").asText().equals("platform-blob-store")).findFirst().orElseThrow();
        assertEquals("s3", blobStore.path("data").path("PLATFORM_BLOB_STORE").asText());
        assertTrue(blobStore.path("data").has("PLATFORM_BLOB_S3_BUCKET"));
        assertEquals(List.of(), ofKind(base, "PersistentVolumeClaim"), "the base claims no volume of its own");
        for (Deployment deployment : ofKind(base, "Deployment", Deployment.class)) {
            String service = deployment.getMetadata().getName();
            var pod = deployment.getSpec().getTemplate().getSpec();
            assertTrue(pod.getVolumes().stream().allMatch(volume -> volume.getPersistentVolumeClaim() == null), service + " mounts a claim");
            var sources = pod.getContainers().get(0).getEnvFrom();
            boolean config = sources.stream().anyMatch(source -> source.getConfigMapRef() != null
                    && source.getConfigMapRef().getName().equals("platform-blob-store"));
            boolean keys = sources.stream().anyMatch(source -> source.getSecretRef() != null
                    && source.getSecretRef().getName().equals("platform-blob-credentials"));
            assertEquals(BLOB_KEEPERS.contains(service), config, service + " reads platform-blob-store");
            assertEquals(BLOB_KEEPERS.contains(service), keys, service + " reads platform-blob-credentials");
        }
    }

    @Test
    void aReadWriteManyClaimFailsTheReview() {
        ObjectNode claim = Manifests.YAML.createObjectNode();
        claim.put("apiVersion", "v1").put("kind", "PersistentVolumeClaim").putObject("metadata").put("name", "shared-blobs");
        claim.putObject("spec").putArray("accessModes").add("ReadWriteMany");
        ObjectNode statefulSet = Manifests.YAML.createObjectNode();
        statefulSet.put("apiVersion", "apps/v1").put("kind", "StatefulSet").putObject("metadata").put("name", "store");
        statefulSet.putObject("spec").putArray("volumeClaimTemplates").addObject().putObject("spec").putArray("accessModes").add("ReadWriteMany");

        List<String> problems = ResourceChecks.problemsIn(List.of(claim, statefulSet));

        assertTrue(problems.contains("PersistentVolumeClaim shared-blobs claims a ReadWriteMany volume, which the default storage classes of EKS, GKE and AKS cannot bind"), problems.toString());
        assertTrue(problems.stream().anyMatch(problem -> problem.startsWith("StatefulSet store claims a ReadWriteMany volume")), problems.toString());
    }
}
