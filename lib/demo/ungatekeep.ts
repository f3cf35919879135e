/**
 * Demo Ungatekeep posts and banners for `deno task seed`: a dozen posts across the three tags
 * (one pinned, one draft, one scheduled for next week, one written in Hindi), a few with gradient images made in code
 * (`images.ts`), and three banners. Added only when there are no posts yet.
 */
import { KvObjectStore } from "@/lib/files/kv_store.ts";
import { storeImage } from "@/lib/files/images.ts";
import type { User } from "@/lib/users/users.ts";
import { createBanner, listBanners } from "@/lib/ungatekeep/banners.ts";
import { createPost, listPostsForAdmin, type PostCreate } from "@/lib/ungatekeep/posts.ts";
import { gradientPng, type Rgb } from "./images.ts";

const DAY = 24 * 60 * 60 * 1000;

const POSTS: (Omit<PostCreate, "images" | "isPinned" | "isPublished"> & {
  daysAgo: number;
  image?: [Rgb, Rgb];
  isPinned?: boolean;
  isPublished?: boolean;
})[] = [
  {
    title: "Welcome to Ungatekeep",
    tag: "announcement",
    daysAgo: 20,
    isPinned: true,
    image: [[67, 56, 202], [236, 72, 153]],
    content:
      "Ungatekeep is where seniors share what they wish they had known.\nRead company experiences, resources and announcements.\n\n## House rules\n\n- Be specific\n- Be kind\n- No referral spam",
  },
  {
    title: "My SDE intern interview at a fintech startup",
    tag: "company_experience",
    daysAgo: 1,
    image: [[14, 116, 144], [34, 197, 94]],
    content:
      "Three rounds: an online test, a DSA round and a hiring-manager chat.\nThe DSA round was two medium problems on arrays and graphs.\n\n**Tip:** talk through your approach before you code.",
  },
  {
    title: "Free resources to learn SQL in two weeks",
    tag: "resources",
    daysAgo: 2,
    linkUrl: "https://sqlbolt.com/",
    linkTitle: "SQLBolt: interactive SQL lessons",
    content:
      "A plan that worked for me: one lesson a day, then practice queries.\nEnd with a small project on a public data set.",
  },
  {
    title: "Summer internship applications open",
    tag: "announcement",
    daysAgo: 3,
    content:
      "Applications for summer internships are now open on the Internships page.\nMost deadlines fall in the next four weeks.",
  },
  {
    title: "Product design internship: what the portfolio review looked like",
    tag: "company_experience",
    daysAgo: 4,
    image: [[234, 88, 12], [250, 204, 21]],
    content:
      "They asked me to walk through one case study in depth.\nShowing the messy middle mattered more than polish.",
  },
  {
    title: "सरकारी बैंक की ब्रांच में इंटर्नशिप: मेरा अनुभव",
    tag: "company_experience",
    daysAgo: 0.5,
    content:
      "पिछली गर्मियों में मैंने एक सरकारी बैंक की ब्रांच में दो महीने की इंटर्नशिप की।\nइंटरव्यू में बैंकिंग की बेसिक बातें और मेरे कॉलेज प्रोजेक्ट के बारे में पूछा गया।\n\n## क्या सीखा\n\n- ग्राहकों से धीरज से बात करना\n- KYC और खाता खोलने का पूरा तरीका\n- Excel में रोज़ की रिपोर्ट\n\n**सलाह:** इंटरव्यू से पहले RBI की हाल की ख़बरें ज़रूर पढ़ लें।",
  },
  {
    title: "Resume template that got me shortlisted",
    tag: "resources",
    daysAgo: 6,
    content:
      "One page, action verbs, numbers wherever possible.\nProjects above coursework if you are in your second year.",
  },
  {
    title: "Data analyst internship at a consulting firm",
    tag: "company_experience",
    daysAgo: 8,
    content: "A case interview with a spreadsheet exercise.\nThey cared about how I checked my own numbers.",
  },
  {
    title: "Hackathon season calendar",
    tag: "announcement",
    daysAgo: 10,
    content:
      "A list of student hackathons for the next three months.\nTeam up early; most close registrations a week before.",
  },
  {
    title: "Cold e-mails that actually get replies",
    tag: "resources",
    daysAgo: 12,
    content: "Keep it under 120 words and ask one clear question.\nMention something specific about their work.",
  },
  {
    title: "Marketing internship at a D2C brand",
    tag: "company_experience",
    daysAgo: 15,
    content:
      "A take-home assignment: plan a launch campaign for a new product.\nThe interview was mostly about my reasoning.",
  },
  {
    title: "Draft: mock interview sign-ups",
    tag: "announcement",
    daysAgo: 0,
    isPublished: false,
    content: "We are planning free mock interviews with seniors.\nDetails to follow.",
  },
  {
    title: "Scheduled: placement season AMA",
    tag: "announcement",
    daysAgo: -7,
    content: "Ask our placement coordinators anything next week.\nQuestions open on the day.",
  },
];

/** Adds the demo posts and banners when there are none; returns the lines the seed script prints. */
export async function seedUngatekeep(kv: Deno.Kv, admin: User): Promise<string[]> {
  const files = new KvObjectStore(kv);
  const existing = await listPostsForAdmin(kv, { limit: 1, offset: 0 });
  let added = 0;
  if (existing.pagination.total === 0) {
    for (const post of POSTS) {
      const { daysAgo, image, ...fields } = post;
      const images = image
        ? [(await storeImage(files, gradientPng({ width: 640, height: 360, from: image[0], to: image[1] }))).id]
        : [];
      await createPost(kv, {
        files,
        author: admin,
        input: {
          ...fields,
          images,
          isPinned: post.isPinned ?? false,
          isPublished: post.isPublished ?? true,
          publishedAt: post.isPublished === false ? undefined : new Date(Date.now() - daysAgo * DAY).toISOString(),
        },
      });
      added++;
    }
  }
  let banners = 0;
  if ((await listBanners(kv, false)).length === 0) {
    const slides: [string, string, Rgb, Rgb][] = [
      ["Summer internships are open", "/internships", [49, 46, 129], [14, 116, 144]],
      ["Share your interview experience", "/ungatekeep?tag=company_experience", [131, 24, 67], [67, 56, 202]],
      ["Free resources for placement season", "/ungatekeep?tag=resources", [20, 83, 45], [14, 116, 144]],
    ];
    for (const [index, [title, linkUrl, from, to]] of slides.entries()) {
      const imageId = (await storeImage(files, gradientPng({ width: 1200, height: 300, from, to }))).id;
      await createBanner(kv, { files, input: { title, linkUrl, imageId, isActive: true, orderIndex: index } });
      banners++;
    }
  }
  return [`Ungatekeep: ${added} posts and ${banners} banners added`];
}
