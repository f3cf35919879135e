/**
 * schema.org JSON-LD of the public detail pages (docs/decisions.md, Search engines and sharing), built from the
 * records as typed values: an open internship is a `JobPosting` (the fields Google's job search reads), a published
 * opportunity an `Event`, an active toolkit a `Course` with an `Offer` in INR, a live post an `Article`. Every URL in
 * them is absolute (`origin` is the site's public origin, `APP_URL`). `jsonLdText` writes one for a
 * `<script type="application/ld+json">` so that no field can end the script.
 */
import { isClosedOn } from "@/lib/internships/policy.ts";
import type { InternshipView } from "@/lib/internships/schema.ts";
import type { OpportunityView } from "@/lib/opportunities/schema.ts";
import type { Toolkit } from "@/lib/toolkits/schema.ts";
import type { PostView } from "@/lib/ungatekeep/schema.ts";
import { FORMER_MEMBER } from "@/lib/users/roles.ts";
import { stringifyForHtml } from "@/lib/web/serializer.ts";

/** The name the site goes by in titles, feeds and structured data. */
export const SITE_NAME = "Career Community";

/** A schema.org `Organization` named by text. */
export interface Organization {
  "@type": "Organization";
  name: string;
  url?: string;
  logo?: string;
}

/** A schema.org `Place` with a postal address in India. */
export interface Place {
  "@type": "Place";
  name?: string;
  address: { "@type": "PostalAddress"; addressLocality?: string; addressCountry: "IN" };
}

/** A schema.org `JobPosting` as an internship page carries it. */
export interface JobPosting {
  "@context": "https://schema.org";
  "@type": "JobPosting";
  title: string;
  description: string;
  datePosted: string;
  validThrough?: string;
  employmentType: string[];
  hiringOrganization: Organization;
  jobLocation?: Place;
  jobLocationType?: "TELECOMMUTE";
  applicantLocationRequirements?: { "@type": "Country"; name: "India" };
  baseSalary?: {
    "@type": "MonetaryAmount";
    currency: "INR";
    value: { "@type": "QuantitativeValue"; value: number; unitText: "MONTH" };
  };
  /** True for a listing that takes applications here (`applyMode: "platform"`). */
  directApply: boolean;
  url: string;
  identifier: { "@type": "PropertyValue"; name: string; value: string };
}

/** A schema.org `Event` as an opportunity page carries it. */
export interface Event {
  "@context": "https://schema.org";
  "@type": "Event";
  name: string;
  description?: string;
  startDate: string;
  endDate: string;
  eventAttendanceMode: "https://schema.org/OnlineEventAttendanceMode" | "https://schema.org/OfflineEventAttendanceMode";
  eventStatus: "https://schema.org/EventScheduled";
  location: Place | { "@type": "VirtualLocation"; url: string };
  organizer: Organization;
  url: string;
}

/** A schema.org `Course` with its `Offer`, as a toolkit page carries it. */
export interface Course {
  "@context": "https://schema.org";
  "@type": "Course";
  name: string;
  description: string;
  provider: Organization;
  image?: string;
  url: string;
  offers: {
    "@type": "Offer";
    price: number;
    priceCurrency: "INR";
    category: "Free" | "Paid";
    availability: "https://schema.org/InStock";
    url: string;
  };
}

/** A schema.org `Article`, as a post page carries it. */
export interface Article {
  "@context": "https://schema.org";
  "@type": "Article";
  headline: string;
  description: string;
  datePublished: string;
  dateModified: string;
  author: { "@type": "Person" | "Organization"; name: string };
  publisher: Organization;
  image?: string[];
  mainEntityOfPage: string;
  /** Comments and replies under the post (docs/decisions.md, Comments and reactions). */
  commentCount: number;
}

/** Any JSON-LD value this module builds. */
export type JsonLd = JobPosting | Event | Course | Article;

/** Longest `headline` Google shows for an article. */
const HEADLINE_MAX = 110;

/**
 * A path `URL` writes as it stands: from "/", no "//" start, no "." or ".." segment, only characters a path and query
 * keep as they are (percent escapes only in the query, where they are never read as dots).
 */
const PLAIN_PATH = /^\/(?!\/)[A-Za-z0-9\-._~!$&()*+,;=:@/]*(?:\?[A-Za-z0-9\-._~!$&()*+,;=:@/?%]*)?$/;
const DOT_SEGMENT = /\/\.\.?(?:[/?]|$)/;
/** Two slashes or backslashes first: what `URL` would read as another host. */
const HOST_RELATIVE = /^[/\\][/\\]/;

/** Each origin as `URL` writes it (scheme and host in lower case, no default port), by the text given. */
const origins = new Map<string, string>();

/**
 * `path` (an absolute path or a URL) as an absolute URL on `origin`, as `new URL(path, origin + "/").href` writes it,
 * except that a path starting with `//` stays on `origin` (a page at `//elsewhere.example/x` names its own origin); a
 * plain path (most of them: a page writes several per render) is joined to the origin without parsing it.
 */
export function absoluteUrl(origin: string, path: string): string {
  if (PLAIN_PATH.test(path) && !DOT_SEGMENT.test(path)) {
    let base = origins.get(origin);
    if (base === undefined) origins.set(origin, base = new URL(origin + "/").origin);
    if (base !== "null") return base + path;
  }
  // A path starting with two slashes (or backslashes) is a path of this origin, never a URL naming another host.
  return (HOST_RELATIVE.test(path) ? new URL(origin + path) : new URL(path, origin + "/")).href;
}

/** The site as the `Organization` that publishes: name, home page and logo. */
export function siteOrganization(origin: string): Organization {
  return {
    "@type": "Organization",
    name: SITE_NAME,
    url: absoluteUrl(origin, "/"),
    logo: absoluteUrl(origin, "/share.png"),
  };
}

/**
 * Whether an internship is open on IST day `today` (`YYYY-MM-DD`): active, not deleted, not withheld by moderation
 * (docs/decisions.md, Trust, "Moderation"), applications not closed by its poster (`closedAt`), and its deadline, if
 * any, not before `today` (docs/decisions.md, Search engines and sharing).
 */
export function isOpenInternship(
  internship: Pick<InternshipView, "isActive" | "deletedAt" | "deadline" | "moderation" | "closedAt">,
  today: string,
): boolean {
  return internship.isActive && !internship.deletedAt && internship.moderation.status === "clear" &&
    !internship.closedAt && !isClosedOn(internship.deadline, today);
}

/** The last moment to apply: the end of a deadline day in IST, or the deadline's own moment. */
function validThrough(deadline: string): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(deadline) ? `${deadline}T23:59:59+05:30` : deadline;
}

/**
 * The `JobPosting` of an internship, or null when it is not open on IST day `today` (closed, inactive or deleted
 * internships carry none). Remote ones are `TELECOMMUTE` open to applicants in India; others are placed at their
 * location (the country alone when none is given). `baseSalary` is the monthly stipend in INR when one above 0 is
 * set.
 */
export function jobPosting(internship: InternshipView, origin: string, today: string): JobPosting | null {
  if (!isOpenInternship(internship, today)) return null;
  const url = absoluteUrl(origin, `/internships/${internship.id}`);
  const posting: JobPosting = {
    "@context": "https://schema.org",
    "@type": "JobPosting",
    title: internship.title,
    description: internship.description ?? `${internship.title} at ${internship.hiringOrganization}.`,
    datePosted: internship.createdAt,
    employmentType: [
      "INTERN",
      ...internship.timing === "full_time" ? ["FULL_TIME"] : internship.timing === "part_time" ? ["PART_TIME"] : [],
    ],
    hiringOrganization: { "@type": "Organization", name: internship.hiringOrganization },
    directApply: internship.applyMode === "platform",
    url,
    identifier: { "@type": "PropertyValue", name: SITE_NAME, value: internship.id },
  };
  if (internship.deadline) posting.validThrough = validThrough(internship.deadline);
  if (internship.type === "remote") {
    posting.jobLocationType = "TELECOMMUTE";
    posting.applicantLocationRequirements = { "@type": "Country", name: "India" };
  } else {
    posting.jobLocation = {
      "@type": "Place",
      address: {
        "@type": "PostalAddress",
        ...internship.location ? { addressLocality: internship.location } : {},
        addressCountry: "IN",
      },
    };
  }
  if (internship.stipend) {
    posting.baseSalary = {
      "@type": "MonetaryAmount",
      currency: "INR",
      value: { "@type": "QuantitativeValue", value: internship.stipend, unitText: "MONTH" },
    };
  }
  return posting;
}

/** A location that names no place but the internet. */
const ONLINE = /^(online|remote|virtual|anywhere)\b/i;

/**
 * The `Event` of a published opportunity (null for one awaiting review or rejected). Without a location, or with
 * one such as "Online", it is an online event at its link (or its page); otherwise an event at that place.
 */
export function opportunityEvent(opportunity: OpportunityView, origin: string): Event | null {
  if (!opportunity.isVerified || !opportunity.isActive) return null;
  const url = absoluteUrl(origin, `/opportunities/${opportunity.id}`);
  const online = opportunity.location === null || ONLINE.test(opportunity.location);
  return {
    "@context": "https://schema.org",
    "@type": "Event",
    name: opportunity.title,
    ...opportunity.description ? { description: opportunity.description } : {},
    startDate: opportunity.startDate,
    endDate: opportunity.endDate,
    eventAttendanceMode: online
      ? "https://schema.org/OnlineEventAttendanceMode"
      : "https://schema.org/OfflineEventAttendanceMode",
    eventStatus: "https://schema.org/EventScheduled",
    location: online ? { "@type": "VirtualLocation", url: opportunity.link ?? url } : {
      "@type": "Place",
      name: opportunity.location!,
      address: { "@type": "PostalAddress", addressLocality: opportunity.location!, addressCountry: "IN" },
    },
    organizer: {
      "@type": "Organization",
      name: opportunity.organizer ?? opportunity.postedBy?.name ?? FORMER_MEMBER,
      ...opportunity.link ? { url: opportunity.link } : {},
    },
    url,
  };
}

/** The `Course` of an active toolkit (null for an inactive one), offered at its price in rupees. */
export function toolkitCourse(toolkit: Toolkit, origin: string): Course | null {
  if (!toolkit.isActive) return null;
  const url = absoluteUrl(origin, `/toolkits/${toolkit.id}`);
  return {
    "@context": "https://schema.org",
    "@type": "Course",
    name: toolkit.title,
    description: toolkit.description,
    provider: siteOrganization(origin),
    ...toolkit.coverImageUrl ? { image: absoluteUrl(origin, toolkit.coverImageUrl) } : {},
    url,
    offers: {
      "@type": "Offer",
      price: toolkit.price,
      priceCurrency: "INR",
      category: toolkit.price === 0 ? "Free" : "Paid",
      availability: "https://schema.org/InStock",
      url,
    },
  };
}

/** The images a post is shown with: its uploads, then its link card's image, as absolute URLs. */
export function postImages(post: PostView, origin: string): string[] {
  const images = post.images.map((id) => absoluteUrl(origin, `/api/files/${id}`));
  if (post.linkImage) images.push(absoluteUrl(origin, post.linkImage));
  return images;
}

/** The `Article` of a live post, by its creator (the site for a former member). */
export function postArticle(post: PostView, origin: string): Article {
  const images = postImages(post, origin);
  const headline = [...post.title];
  return {
    "@context": "https://schema.org",
    "@type": "Article",
    headline: headline.length > HEADLINE_MAX ? headline.slice(0, HEADLINE_MAX - 1).join("") + "…" : post.title,
    description: post.excerpt,
    datePublished: post.publishedAt ?? post.createdAt,
    dateModified: post.updatedAt,
    author: post.creator
      ? { "@type": "Person", name: post.creator.name }
      : { "@type": "Organization", name: SITE_NAME },
    publisher: siteOrganization(origin),
    ...images.length > 0 ? { image: images } : {},
    mainEntityOfPage: absoluteUrl(origin, `/ungatekeep/${post.id}`),
    commentCount: post.commentCount,
  };
}

/**
 * `value` as the text of a `<script type="application/ld+json">`: JSON with every `<` written `\u003c`, so that
 * `</script>` or `<!--` inside a field cannot end the script or open a comment; `JSON.parse` reads the text back
 * unchanged.
 */
export function jsonLdText(value: JsonLd): string {
  return stringifyForHtml(value);
}
