package org.llmplatform.deploy;

import static org.llmplatform.deploy.Manifests.ofKind;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/** What a reviewer checks in a set of rendered manifests; each problem is one readable line. */
final class ResourceChecks {

    private final List<ObjectNode> resources;
    private final List<Deployment> deployments;
    private final List<String> problems = new ArrayList<>();

    private ResourceChecks(List<ObjectNode> resources) {
        this.resources = resources;
        this.deployments = ofKind(resources, "Deployment", Deployment.class);
    }

    static List<String> problemsIn(List<ObjectNode> resources) {
        ResourceChecks checks = new ResourceChecks(resources);
        checks.everyResourceIsNamedAndTyped();
        checks.deploymentSelectorsMatchTheirTemplates();
        checks.servicesSelectADeploymentPort();
        checks.probesUseDeclaredPortsAndHealthPaths();
        checks.referencedObjectsExist();
        checks.autoscalersAndBudgetsTargetDeployments();
        checks.everyDeploymentScalesAndSurvivesADrain();
        checks.everyDeploymentHasANetworkPolicy();
        checks.containersAreHardenedAndBounded();
        checks.imagesArePinned();
        checks.noVolumeIsSharedBetweenPods();
        return checks.problems;
    }

    private void everyResourceIsNamedAndTyped() {
        for (ObjectNode resource : resources) {
            if (resource.path("apiVersion").asText().isEmpty() || resource.path("kind").asText().isEmpty()
                    || resource.path("metadata").path("name").asText().isEmpty()) {
                problems.add("a resource lacks apiVersion, kind or metadata.name: " + resource);
            }
        }
        // Parsing every core kind with the fabric8 model rejects fields of the wrong type.
        List.of(Service.class, ConfigMap.class, Secret.class, ServiceAccount.class, PersistentVolumeClaim.class,
                HorizontalPodAutoscaler.class, PodDisruptionBudget.class, NetworkPolicy.class)
                .forEach(type -> ofKind(resources, type.getSimpleName(), type));
    }

    private void deploymentSelectorsMatchTheirTemplates() {
        for (Deployment deployment : deployments) {
            if (!labels(deployment).entrySet().containsAll(deployment.getSpec().getSelector().getMatchLabels().entrySet())) {
                problems.add("Deployment " + name(deployment) + ": selector " + deployment.getSpec().getSelector().getMatchLabels()
                        + " does not match its template labels " + labels(deployment));
            }
        }
    }

    private void servicesSelectADeploymentPort() {
        for (Service service : ofKind(resources, "Service", Service.class)) {
            Map<String, String> selector = service.getSpec().getSelector();
            List<Deployment> selected = podOwners().stream()
                    .filter(deployment -> labels(deployment).entrySet().containsAll(selector.entrySet())).toList();
            if (selected.isEmpty()) {
                problems.add("Service " + name(service) + " selects no Deployment or StatefulSet with " + selector);
                continue;
            }
            for (ServicePort port : service.getSpec().getPorts()) {
                IntOrString target = port.getTargetPort() != null ? port.getTargetPort() : new IntOrString(port.getPort());
                for (Deployment deployment : selected) {
                    if (declaredPort(deployment, target).isEmpty()) {
                        problems.add("Service " + name(service) + " targets port " + target.getValue()
                                + " that Deployment " + name(deployment) + " does not declare");
                    }
                    declaredPort(deployment, target).filter(declared -> !declared.getContainerPort().equals(port.getPort()))
                            .ifPresent(declared -> problems.add("Service " + name(service) + " port " + port.getPort()
                                    + " differs from the container port " + declared.getContainerPort()));
                }
            }
        }
    }

    /** The Deployments, and the StatefulSets (MinIO) in the same shape, for what only needs their pods. */
    private List<Deployment> podOwners() {
        List<Deployment> owners = new ArrayList<>(deployments);
        for (StatefulSet set : ofKind(resources, "StatefulSet", StatefulSet.class)) {
            owners.add(new DeploymentBuilder().withMetadata(set.getMetadata())
                    .withNewSpec().withSelector(set.getSpec().getSelector()).withTemplate(set.getSpec().getTemplate()).endSpec().build());
        }
        return owners;
    }

    private void probesUseDeclaredPortsAndHealthPaths() {
        for (Deployment deployment : deployments) {
            for (Container container : pod(deployment).getContainers()) {
                Map<String, Probe> probes = new LinkedHashMap<>();
                probes.put("startup", container.getStartupProbe());
                probes.put("liveness", container.getLivenessProbe());
                probes.put("readiness", container.getReadinessProbe());
                probes.forEach((kind, probe) -> {
                    if (probe == null || probe.getHttpGet() == null) {
                        problems.add("Deployment " + name(deployment) + " has no HTTP " + kind + " probe");
                    } else {
                        if (declaredPort(deployment, probe.getHttpGet().getPort()).isEmpty()) {
                            problems.add("Deployment " + name(deployment) + ": the " + kind + " probe uses an undeclared port");
                        }
                        if (!probe.getHttpGet().getPath().startsWith("/q/health/")) {
                            problems.add("Deployment " + name(deployment) + ": the " + kind + " probe is not a /q/health endpoint");
                        }
                    }
                });
            }
        }
    }

    private void referencedObjectsExist() {
        Set<String> configMaps = names("ConfigMap");
        Set<String> secrets = names("Secret");
        // CloudNativePG writes the credentials of each Cluster's application owner to "<cluster>-app".
        ofKind(resources, "Cluster").forEach(cluster -> secrets.add(cluster.path("metadata").path("name").asText() + "-app"));
        Set<String> claims = names("PersistentVolumeClaim");
        Set<String> accounts = names("ServiceAccount");
        for (Deployment deployment : deployments) {
            String where = "Deployment " + name(deployment);
            PodSpec pod = pod(deployment);
            if (pod.getServiceAccountName() != null && !accounts.contains(pod.getServiceAccountName())) {
                problems.add(where + " uses the missing ServiceAccount " + pod.getServiceAccountName());
            }
            for (Container container : pod.getContainers()) {
                container.getEnvFrom().forEach(source -> {
                    if (source.getConfigMapRef() != null && !Boolean.TRUE.equals(source.getConfigMapRef().getOptional())
                            && !configMaps.contains(source.getConfigMapRef().getName())) {
                        problems.add(where + " reads the missing ConfigMap " + source.getConfigMapRef().getName());
                    }
                    if (source.getSecretRef() != null && !Boolean.TRUE.equals(source.getSecretRef().getOptional())
                            && !secrets.contains(source.getSecretRef().getName())) {
                        problems.add(where + " reads the missing Secret " + source.getSecretRef().getName());
                    }
                });
                container.getEnv().stream().filter(env -> env.getValueFrom() != null).forEach(env -> {
                    var secret = env.getValueFrom().getSecretKeyRef();
                    if (secret != null && !Boolean.TRUE.equals(secret.getOptional()) && !secrets.contains(secret.getName())) {
                        problems.add(where + " reads " + env.getName() + " from the missing Secret " + secret.getName());
                    }
                    var configMap = env.getValueFrom().getConfigMapKeyRef();
                    if (configMap != null && !Boolean.TRUE.equals(configMap.getOptional()) && !configMaps.contains(configMap.getName())) {
                        problems.add(where + " reads " + env.getName() + " from the missing ConfigMap " + configMap.getName());
                    }
                });
                Set<String> volumes = pod.getVolumes().stream().map(Volume::getName).collect(Collectors.toSet());
                container.getVolumeMounts().stream().filter(mount -> !volumes.contains(mount.getName()))
                        .forEach(mount -> problems.add(where + " mounts the undeclared volume " + mount.getName()));
            }
            for (Volume volume : pod.getVolumes()) {
                if (volume.getPersistentVolumeClaim() != null && !claims.contains(volume.getPersistentVolumeClaim().getClaimName())) {
                    problems.add(where + " mounts the missing PersistentVolumeClaim " + volume.getPersistentVolumeClaim().getClaimName());
                }
                if (volume.getConfigMap() != null && !configMaps.contains(volume.getConfigMap().getName())) {
                    problems.add(where + " mounts the missing ConfigMap " + volume.getConfigMap().getName());
                }
                if (volume.getSecret() != null && !secrets.contains(volume.getSecret().getSecretName())) {
                    problems.add(where + " mounts the missing Secret " + volume.getSecret().getSecretName());
                }
            }
        }
    }

    private void autoscalersAndBudgetsTargetDeployments() {
        Set<String> deploymentNames = deployments.stream().map(ResourceChecks::name).collect(Collectors.toSet());
        for (HorizontalPodAutoscaler autoscaler : ofKind(resources, "HorizontalPodAutoscaler", HorizontalPodAutoscaler.class)) {
            var target = autoscaler.getSpec().getScaleTargetRef();
            if (!"Deployment".equals(target.getKind()) || !deploymentNames.contains(target.getName())) {
                problems.add("HorizontalPodAutoscaler " + name(autoscaler) + " scales the missing " + target.getKind() + " " + target.getName());
            }
            if (autoscaler.getSpec().getMinReplicas() > autoscaler.getSpec().getMaxReplicas()) {
                problems.add("HorizontalPodAutoscaler " + name(autoscaler) + " has minReplicas above maxReplicas");
            }
        }
        for (PodDisruptionBudget budget : ofKind(resources, "PodDisruptionBudget", PodDisruptionBudget.class)) {
            Map<String, String> selector = budget.getSpec().getSelector().getMatchLabels();
            if (deployments.stream().noneMatch(deployment -> labels(deployment).entrySet().containsAll(selector.entrySet()))) {
                problems.add("PodDisruptionBudget " + name(budget) + " selects no Deployment with " + selector);
            }
        }
    }

    /**
     * Every Deployment has an autoscaler that starts where the Deployment does, and a budget that lets a node drain
     * evict one pod: {@code minAvailable} below the fewest replicas the Deployment may run (else a drain blocks forever).
     */
    private void everyDeploymentScalesAndSurvivesADrain() {
        List<HorizontalPodAutoscaler> autoscalers = ofKind(resources, "HorizontalPodAutoscaler", HorizontalPodAutoscaler.class);
        List<PodDisruptionBudget> budgets = ofKind(resources, "PodDisruptionBudget", PodDisruptionBudget.class);
        for (Deployment deployment : deployments) {
            List<HorizontalPodAutoscaler> scaling = autoscalers.stream()
                    .filter(autoscaler -> name(deployment).equals(autoscaler.getSpec().getScaleTargetRef().getName())).toList();
            if (scaling.size() != 1) {
                problems.add("Deployment " + name(deployment) + " has " + scaling.size() + " HorizontalPodAutoscalers, not one");
                continue;
            }
            int replicas = Objects.requireNonNullElse(deployment.getSpec().getReplicas(), 1);
            int fewest = Objects.requireNonNullElse(scaling.get(0).getSpec().getMinReplicas(), 1);
            if (fewest != replicas) {
                problems.add("Deployment " + name(deployment) + " starts at " + replicas + " replicas, its autoscaler's minReplicas is " + fewest);
            }
            if (scaling.get(0).getSpec().getMetrics() == null || scaling.get(0).getSpec().getMetrics().isEmpty()) {
                problems.add("HorizontalPodAutoscaler " + name(scaling.get(0)) + " names no metric to scale on");
            }
            for (PodDisruptionBudget budget : budgets) {
                if (!labels(deployment).entrySet().containsAll(budget.getSpec().getSelector().getMatchLabels().entrySet())) {
                    continue;
                }
                IntOrString minAvailable = budget.getSpec().getMinAvailable();
                if (minAvailable == null || minAvailable.getIntVal() == null) {
                    problems.add("PodDisruptionBudget " + name(budget) + " needs minAvailable as a number of pods");
                } else if (minAvailable.getIntVal() >= Math.min(replicas, fewest)) {
                    problems.add("PodDisruptionBudget " + name(budget) + " keeps " + minAvailable.getIntVal() + " of "
                            + Math.min(replicas, fewest) + " pods available: a drain could never evict one");
                }
            }
        }
    }

    private void everyDeploymentHasANetworkPolicy() {
        List<NetworkPolicy> policies = ofKind(resources, "NetworkPolicy", NetworkPolicy.class);
        for (Deployment deployment : deployments) {
            boolean covered = policies.stream().anyMatch(policy -> policy.getSpec().getPolicyTypes().containsAll(List.of("Ingress", "Egress"))
                    && labels(deployment).entrySet().containsAll(policy.getSpec().getPodSelector().getMatchLabels().entrySet()));
            if (!covered) {
                problems.add("Deployment " + name(deployment) + " has no NetworkPolicy limiting both ingress and egress");
            }
        }
    }

    private void containersAreHardenedAndBounded() {
        for (Deployment deployment : deployments) {
            PodSpec pod = pod(deployment);
            if (pod.getSecurityContext() == null || !Boolean.TRUE.equals(pod.getSecurityContext().getRunAsNonRoot())) {
                problems.add("Deployment " + name(deployment) + " may run as root (set runAsNonRoot)");
            }
            for (Container container : pod.getContainers()) {
                var context = container.getSecurityContext();
                if (context == null || !Boolean.FALSE.equals(context.getAllowPrivilegeEscalation())
                        || !Boolean.TRUE.equals(context.getReadOnlyRootFilesystem())) {
                    problems.add("Deployment " + name(deployment) + ": container " + container.getName()
                            + " needs allowPrivilegeEscalation=false and a read-only root filesystem");
                }
                if (container.getResources() == null || container.getResources().getRequests().get("memory") == null
                        || container.getResources().getLimits().get("memory") == null) {
                    problems.add("Deployment " + name(deployment) + ": container " + container.getName() + " has no memory request and limit");
                }
            }
        }
    }

    private void imagesArePinned() {
        for (Deployment deployment : deployments) {
            for (Container container : pod(deployment).getContainers()) {
                if (!isPinned(container.getImage())) {
                    problems.add("Deployment " + name(deployment) + " uses the unpinned image " + container.getImage());
                }
            }
        }
        for (ObjectNode cluster : ofKind(resources, "Cluster")) {
            if (!isPinned(cluster.path("spec").path("imageName").asText())) {
                problems.add("Cluster " + cluster.path("metadata").path("name").asText() + " has no pinned imageName");
            }
        }
        for (ObjectNode kafka : ofKind(resources, "Kafka")) {
            if (kafka.path("spec").path("kafka").path("version").asText().isEmpty()) {
                problems.add("Kafka " + kafka.path("metadata").path("name").asText() + " does not pin spec.kafka.version");
            }
        }
    }

    /**
     * No claim asks for ReadWriteMany (a PersistentVolumeClaim, a StatefulSet's claim template, anything):
     * the default storage classes of EKS, GKE and AKS cannot bind one, so its pods would never start.
     * Blobs belong in object storage instead.
     */
    private void noVolumeIsSharedBetweenPods() {
        for (ObjectNode resource : resources) {
            if (resource.findValues("accessModes").stream().flatMap(modes -> java.util.stream.StreamSupport.stream(modes.spliterator(), false))
                    .anyMatch(mode -> mode.asText().equals("ReadWriteMany"))) {
                problems.add(resource.path("kind").asText() + " " + resource.path("metadata").path("name").asText()
                        + " claims a ReadWriteMany volume, which the default storage classes of EKS, GKE and AKS cannot bind");
            }
        }
    }

    /** A tag that names one build: present, and not a moving one. */
    static boolean isPinned(String image) {
        if (image == null || image.isEmpty()) {
            return false;
        }
        if (image.contains("@sha256:")) {
            return true;
        }
        int colon = image.lastIndexOf(':');
        if (colon < 0 || colon < image.lastIndexOf('/')) {
            return false;
        }
        String tag = image.substring(colon + 1);
        return !Set.of("latest", "main", "master", "stable", "edge").contains(tag);
    }

    private Optional<ContainerPort> declaredPort(Deployment deployment, IntOrString port) {
        return pod(deployment).getContainers().stream()
                .flatMap(container -> container.getPorts().stream())
                .filter(declared -> port.getStrVal() != null ? port.getStrVal().equals(declared.getName())
                        : Objects.equals(port.getIntVal(), declared.getContainerPort()))
                .findFirst();
    }

    private Set<String> names(String kind) {
        return new HashSet<>(ofKind(resources, kind).stream().map(resource -> resource.path("metadata").path("name").asText()).toList());
    }

    private static PodSpec pod(Deployment deployment) {
        return deployment.getSpec().getTemplate().getSpec();
    }

    private static Map<String, String> labels(Deployment deployment) {
        return deployment.getSpec().getTemplate().getMetadata().getLabels();
    }

    private static String name(HasMetadata resource) {
        return resource.getMetadata().getName();
    }
}
