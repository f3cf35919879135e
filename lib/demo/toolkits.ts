/**
 * Demo toolkits for `deno task seed`: three active toolkits with article and video lessons (one
 * free preview lesson each) and a gradient cover image each (stored as an upload), one inactive draft, three coupons
 * (20 %, ₹100 off, 100 % off) and one that expired two weeks ago (50 %: its checkout is refused as expired), and a
 * demo student who owns the first toolkit (bought with the 100 % coupon through the real
 * checkout) with two lessons completed. Idempotent: what exists (by title or code) is kept.
 */
import { CouponCreateSchema, createCoupon, listCoupons, updateCoupon } from "@/lib/coupons/coupons.ts";
import { auditOps } from "@/lib/admin_log/admin_log.ts";
import { initiatePurchase } from "@/lib/purchases/checkout.ts";
import { hasPurchased } from "@/lib/purchases/purchases.ts";
import {
  ContentItemCreateSchema,
  createContentItem,
  createToolkit,
  listContentItems,
  listToolkitsForAdmin,
  type Toolkit,
  ToolkitCreateSchema,
  updateToolkit,
} from "@/lib/toolkits/catalog.ts";
import { setLessonCompleted } from "@/lib/toolkits/progress.ts";
import { KvObjectStore } from "@/lib/files/kv_store.ts";
import { fileUrl, storeImage } from "@/lib/files/images.ts";
import { gradientPng, type Rgb } from "./images.ts";
import type { User } from "@/lib/users/users.ts";

const VIDEO = "https://interactive-examples.mdn.mozilla.net/media/cc0-videos/flower.mp4";

const article = (heading: string, points: string[]) =>
  `<h2>${heading}</h2><p>Work through each point, then try it on your own material.</p><ul>${
    points.map((p) => `<li>${p}</li>`).join("")
  }</ul>`;

const TOOLKITS = [
  {
    isActive: true,
    fields: {
      title: "Resume That Gets Read",
      description: "Turn your projects and internships into a one-page resume that recruiters actually read.",
      price: 499,
      originalPrice: 999,
      category: "Career",
      highlights: ["Templates for freshers", "ATS-friendly formatting", "Before-and-after examples"],
      totalDuration: "2 hours",
      showSaleBadge: true,
    },
    cover: [[79, 70, 229], [14, 165, 233]] as [Rgb, Rgb],
    lessons: [
      {
        title: "What recruiters look for",
        type: "article",
        isPreview: true,
        points: ["Six-second scan", "Impact first"],
      },
      { title: "Writing bullet points with numbers", type: "article", points: ["Action verbs", "Quantify results"] },
      { title: "Walkthrough: fixing a real resume", type: "video" },
      { title: "Checklist before you apply", type: "article", points: ["One page", "PDF export", "File name"] },
    ],
  },
  {
    isActive: true,
    fields: {
      title: "Crack the Data Analyst Interview",
      description: "SQL, Excel and case questions as they come up in analyst interviews, with worked answers.",
      price: 799,
      category: "Data",
      highlights: ["50 SQL questions", "Case study framework", "Mock interview recording"],
      totalDuration: "5 hours",
    },
    cover: [[5, 150, 105], [250, 204, 21]] as [Rgb, Rgb],
    lessons: [
      { title: "How the interview is structured", type: "video", isPreview: true },
      { title: "SQL joins and window functions", type: "article", points: ["INNER vs LEFT", "ROW_NUMBER"] },
      { title: "Case study: a drop in sign-ups", type: "article", points: ["Clarify", "Segment", "Conclude"] },
    ],
  },
  {
    isActive: true,
    fields: {
      title: "Salary Negotiation for Freshers",
      description: "Know your number, answer the expected-salary question and negotiate an offer politely.",
      price: 299,
      originalPrice: 399,
      category: "Career",
      highlights: ["Scripts you can copy", "Offer comparison sheet"],
      totalDuration: "1 hour",
    },
    cover: [[219, 39, 119], [249, 115, 22]] as [Rgb, Rgb],
    lessons: [
      { title: "Finding your market rate", type: "article", isPreview: true, points: ["Salary surveys", "Peers"] },
      { title: "Role-play: the offer call", type: "video" },
    ],
  },
  {
    isActive: false,
    fields: {
      title: "LinkedIn Profile Makeover (draft)",
      description: "A profile that brings recruiters to you. Coming soon.",
      price: 199,
      category: "Career",
    },
    cover: [[71, 85, 105], [148, 163, 184]] as [Rgb, Rgb],
    lessons: [{ title: "Headline formulas", type: "article", isPreview: true, points: ["Role", "Skills", "Proof"] }],
  },
] as const;

const COUPONS = [
  { code: "WELCOME20", discountType: "percentage", discountValue: 20 },
  { code: "FLAT100", discountType: "fixed", discountValue: 100, usageLimit: 100 },
  { code: "FREEPASS", discountType: "percentage", discountValue: 100, usageLimit: 5 },
  { code: "DIWALI50", discountType: "percentage", discountValue: 50 },
] as const;

/** The demo coupon that has run out, and how long ago it did (ms): its refusal and the admin list's "Expired". */
const EXPIRED = { code: "DIWALI50", ago: 14 * 24 * 60 * 60 * 1000 };

/** A 960 × 540 gradient cover stored as an upload; returns its path. */
async function storeCover(kv: Deno.Kv, [from, to]: [Rgb, Rgb]): Promise<string> {
  return fileUrl((await storeImage(new KvObjectStore(kv), gradientPng({ width: 960, height: 540, from, to }))).id);
}

async function seedToolkit(kv: Deno.Kv, admin: User, spec: typeof TOOLKITS[number]): Promise<[Toolkit, boolean]> {
  const existing = (await listToolkitsForAdmin(kv, spec.fields.title)).find((t) => t.title === spec.fields.title);
  if (existing?.coverImageUrl === null) {
    return [
      await updateToolkit(kv, { id: existing.id, patch: { coverImageUrl: await storeCover(kv, spec.cover) } }),
      false,
    ];
  }
  if (existing) return [existing, false];
  const toolkit = await createToolkit(kv, {
    creator: admin,
    input: ToolkitCreateSchema.parse({ ...spec.fields, coverImageUrl: await storeCover(kv, spec.cover) }),
  });
  for (const lesson of spec.lessons) {
    await createContentItem(
      kv,
      ContentItemCreateSchema.parse({
        toolkitId: toolkit.id,
        title: lesson.title,
        type: lesson.type,
        content: "points" in lesson ? article(lesson.title, [...lesson.points]) : null,
        cdnVideoUrl: lesson.type === "video" ? VIDEO : null,
        isPreview: "isPreview" in lesson ? lesson.isPreview : false,
      }),
    );
  }
  return [spec.isActive ? await updateToolkit(kv, { id: toolkit.id, patch: { isActive: true } }) : toolkit, true];
}

/** Seeds the demo catalog as `admin` and the purchase of `student`; returns lines describing what was added. */
export async function seedToolkits(kv: Deno.Kv, admin: User, student: User): Promise<string[]> {
  const toolkits: Toolkit[] = [];
  let added = 0;
  for (const spec of TOOLKITS) {
    const [toolkit, isNew] = await seedToolkit(kv, admin, spec);
    toolkits.push(toolkit);
    if (isNew) added++;
  }
  let coupons = 0;
  for (const coupon of COUPONS) {
    const found = (await listCoupons(kv, coupon.code)).find((c) => c.code === coupon.code);
    const audit = (action: "coupon.create" | "coupon.update") =>
      auditOps({ adminId: admin.id, action, targetKind: "coupon" });
    const made = found ?? await createCoupon(kv, CouponCreateSchema.parse(coupon), audit("coupon.create"));
    if (!found) coupons++;
    // A coupon is never created expired: the expired one is created, then its expiry moved back (until it is).
    if (coupon.code === EXPIRED.code && !(made.expiresAt && Date.parse(made.expiresAt) <= Date.now())) {
      const expiresAt = new Date(Date.now() - EXPIRED.ago).toISOString();
      await updateCoupon(kv, { id: made.id, patch: { expiresAt }, audit: audit("coupon.update") });
    }
  }
  const owned = toolkits[0];
  if (!(await hasPurchased(kv, student.id, owned.id))) {
    await initiatePurchase(kv, { payments: null, user: student, toolkitId: owned.id, couponCode: "FREEPASS" });
    const lessons = (await listContentItems(kv, owned.id)).map((item) => item.id);
    for (const id of lessons.slice(0, 2)) {
      await setLessonCompleted(kv, {
        toolkitId: owned.id,
        userId: student.id,
        itemId: id,
        completed: true,
        itemIds: lessons,
      });
    }
  }
  return [
    `Toolkits: ${added} added (${toolkits.filter((t) => t.isActive).length} active), coupons: ${coupons} added ` +
    `(${COUPONS.map((c) => c.code === EXPIRED.code ? `${c.code}, expired` : c.code).join(", ")}); ` +
    `${student.name} owns "${owned.title}"`,
  ];
}
