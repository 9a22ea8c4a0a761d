package dev.pigeonhole.archfixture.jdkonly.domain.model;

import com.tngtech.archunit.base.DescribedPredicate;

/** Broken on purpose: the domain uses a library. */
public record FrameworkValue(DescribedPredicate<String> rule) {
}
