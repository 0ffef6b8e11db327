package org.llmplatform.training.service.trainer;

/** The job was cancelled while it trained: nothing more is published for it. */
public class JobCancelledException extends RuntimeException {

    public JobCancelledException(String jobId) {
        super("training job " + jobId + " was cancelled");
    }
}
