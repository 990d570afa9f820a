package io.jobinfo.store.seatunnel.harness.partition;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.concurrent.Callable;

/** Runs inside a member: returns and forgets the samples {@link PartitionHoldInterceptor} recorded there. */
public final class PartitionHoldReport implements Callable<ArrayList<PartitionHoldInterceptor.Sample>>, Serializable {

    private static final long serialVersionUID = 1L;

    @Override
    public ArrayList<PartitionHoldInterceptor.Sample> call() {
        return new ArrayList<>(PartitionHoldInterceptor.drain());
    }
}
