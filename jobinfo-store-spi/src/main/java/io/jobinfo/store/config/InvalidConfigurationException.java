package io.jobinfo.store.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Configuration that cannot work. Lists every problem found at once, each naming the key and what to do. */
public class InvalidConfigurationException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final List<String> problems;

    public InvalidConfigurationException(List<String> problems) {
        super(format(problems));
        this.problems = Collections.unmodifiableList(new ArrayList<>(problems));
    }

    public List<String> problems() {
        return problems;
    }

    private static String format(List<String> problems) {
        StringBuilder sb = new StringBuilder("Invalid jobinfo-storage configuration (")
                .append(problems.size()).append(problems.size() == 1 ? " problem" : " problems").append("):");
        for (String p : problems) {
            sb.append("\n  - ").append(p);
        }
        return sb.toString();
    }
}
